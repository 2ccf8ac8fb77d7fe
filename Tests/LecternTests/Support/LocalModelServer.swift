import Foundation
import XCTest
@testable import Lectern

/// llama.cpp's server with Gemma 3 270M (`make llama` installs both in .venv-llama),
/// started by `Tests/Support/llm_server.py` on 127.0.0.1 on a free port and stopped with the
/// tests. It speaks the OpenAI chat-completions format and enforces JSON schemas.
final class LocalModelServer: @unchecked Sendable {
    let process: Process
    let port: Int
    static let contextTokens = 2048

    static var venv: URL { LlamaProcess.venv }
    static var model: URL { LlamaProcess.model }

    init() throws {
        (process, port) = try LlamaProcess.start(
            script: "llm_server.py", arguments: [String(Self.contextTokens)],
            missing: "the local model is not installed (\(LlamaProcess.model.path)): run `make llama` (make test does); skipping the real-model tests",
            failed: "the local model server did not start (see Tests/Support/llm_server.py)")
    }

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// A number from the server's Prometheus metrics (`llamacpp:tokens_predicted_total` …).
    func metric(_ name: String) throws -> Double {
        let text = try HTTPClient().get("http://127.0.0.1:\(port)/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        throw LecternError(.notFound, name, "no such metric")
    }

    func stop() { LlamaProcess.stop(process) }

    deinit { stop() }
}

extension LocalModelServer {
    /// The served Gemma through the OpenAI-compatible adapter, with room for its slow answers.
    func languageModel() throws -> any LanguageModel {
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "gemma-3-270m"
        settings.baseURL = baseURL
        settings.contextTokens = LocalModelServer.contextTokens
        settings.timeout = 240
        return try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
    }
}

/// A test class that talks to the local model: one server for the class, started before its
/// first test and stopped after its last.
class LocalModelTestCase: XCTestCase {
    nonisolated(unsafe) static var server: LocalModelServer?
    nonisolated(unsafe) static var startError: Error?

    override class func setUp() {
        do { server = try LocalModelServer() } catch { startError = error }
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        startError = nil
    }

    func runningServer() throws -> LocalModelServer {
        if let error = Self.startError { throw error }
        guard let server = Self.server else { throw XCTSkip("the local model server is not running") }
        return server
    }
}
