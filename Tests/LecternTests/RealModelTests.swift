import Foundation
import XCTest
@testable import Lectern

/// The OpenAI-compatible provider against a real model: llama.cpp's server running Gemma 3
/// 270M on 127.0.0.1. Few calls with small answers (about 20 tokens/s on 2 cores); the
/// assertions are on behaviour, never on the model's wording.
final class RealModelTests: XCTestCase {
    nonisolated(unsafe) static var server: LocalModelServer?
    nonisolated(unsafe) static var startError: Error?

    override class func setUp() {
        do { server = try LocalModelServer() } catch { startError = error }
    }

    override class func tearDown() {
        server?.stop()
        server = nil
    }

    func runningServer() throws -> LocalModelServer {
        if let error = Self.startError { throw error }
        guard let server = Self.server else { throw XCTSkip("the local model server is not running") }
        return server
    }

    func model(_ server: LocalModelServer) throws -> any LanguageModel {
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "gemma-3-270m"
        settings.baseURL = server.baseURL
        settings.contextTokens = LocalModelServer.contextTokens
        settings.timeout = 240
        return try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
    }

    func testACompletionArrivesWithItsTokenCounts() throws {
        let server = try runningServer()
        let response = try model(server).complete(ChatRequest(messages: [.user("Name one colour.")], maxTokens: 6))
        XCTAssertFalse(response.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "the model answered nothing")
        XCTAssertGreaterThan(response.inputTokens, 0)
        XCTAssertGreaterThan(response.outputTokens, 0)
        XCTAssertLessThanOrEqual(response.outputTokens, 6, "max_tokens is honoured")
    }

    struct Colour: Decodable, Sendable { var colour: String }

    func testSchemaConstrainedOutputParsesAndValidates() throws {
        let server = try runningServer()
        let schema = JSONSchema(name: "colour", [
            "type": "object",
            "properties": ["colour": ["type": "string", "enum": ["red", "green", "blue"]]],
            "required": ["colour"],
            "additionalProperties": false,
        ])
        let generated = try model(server).generate(
            Colour.self, request: ChatRequest(messages: [.user("What colour is grass? Answer in JSON.")], maxTokens: 20), schema: schema)
        XCTAssertTrue(["red", "green", "blue"].contains(generated.value.colour))
        XCTAssertEqual(generated.responses.count, 1, "llama.cpp enforces the schema, so no repair was needed")
        XCTAssertTrue(schema.violations(of: try XCTUnwrap(JSONValue.parse(generated.responses[0].text))).isEmpty)
    }

    func testTheSecondIdenticalCallIsACacheHitAndTokensAreRecordedInTheRun() throws {
        let server = try runningServer()
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lib.db").path)
        let recorder = try RunRecorder(store: store, command: "test", arguments: [])
        let cached = LibraryModel(try model(server), store: store, recorder: recorder,
                                  prices: ["gemma-3-270m": ModelPrice(input: 1, output: 2)])
        let request = ChatRequest(messages: [.user("Say hello.")], maxTokens: 5, template: "test/\(UUID().uuidString)")

        let first = try cached.complete(request)
        let predicted = try server.metric("llamacpp:tokens_predicted_total")
        let prompted = try server.metric("llamacpp:prompt_tokens_total")
        let second = try cached.complete(request)

        XCTAssertFalse(first.cached)
        XCTAssertTrue(second.cached)
        XCTAssertEqual(second.text, first.text)
        XCTAssertEqual(try server.metric("llamacpp:tokens_predicted_total"), predicted, "the cache hit reached the server")
        XCTAssertEqual(try server.metric("llamacpp:prompt_tokens_total"), prompted, "the cache hit reached the server")

        recorder.finish()
        let counts = try XCTUnwrap(store.runs(limit: 1).first).counts
        XCTAssertEqual(counts["llm.calls"], 1)
        XCTAssertEqual(counts["llm.cache_hits"], 1)
        XCTAssertEqual(counts["llm.input_tokens"], first.inputTokens)
        XCTAssertEqual(counts["llm.output_tokens"], first.outputTokens)
        XCTAssertGreaterThan(counts["llm.input_tokens"] ?? 0, 0)
        XCTAssertGreaterThan(counts["llm.cost_microusd"] ?? 0, 0, "cost from the price table")
        let calls = try store.modelCalls(run: recorder.id)
        XCTAssertEqual(calls.map(\.cached), [false, true])
        XCTAssertEqual(calls[1].inputTokens + calls[1].outputTokens, 0, "a cache hit costs no tokens")

        // --no-cache asks again.
        let fresh = LibraryModel(try model(server), store: store, recorder: nil, useCache: false)
        XCTAssertFalse(try fresh.complete(request).cached)
        XCTAssertGreaterThan(try server.metric("llamacpp:tokens_predicted_total"), predicted)
    }
}
