import Foundation
import XCTest
@testable import Lectern

/// Streamed answers in each provider's real wire format, replayed by the loopback server piece
/// by piece with pauses between them, as the published API references show them:
/// - Anthropic, https://docs.anthropic.com/en/api/messages-streaming ("Basic streaming
///   request": `message_start`, `content_block_start`, `ping`, `content_block_delta`
///   text_delta events, `content_block_stop`, `message_delta` with `stop_reason` and
///   `usage.output_tokens`, `message_stop`; and the `error` event, `overloaded_error`).
/// - Ollama, https://github.com/ollama/ollama/blob/main/docs/api.md, "Chat request
///   (Streaming)": JSON objects a line with `message.content`, the last `done: true` with
///   `done_reason`, `prompt_eval_count` and `eval_count`.
/// - OpenAI, https://platform.openai.com/docs/api-reference/chat-streaming: `data:` chunks of
///   `choices[0].delta.content`, `finish_reason` on the last choice, a usage chunk with
///   `stream_options.include_usage`, then `data: [DONE]`. (The real llama.cpp server is in
///   RealModelTests.)
final class StreamingTests: XCTestCase {
    func sse(_ event: String, _ data: [String: Any]) -> String {
        let json = try! JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])
        return "event: \(event)\ndata: \(String(decoding: json, as: UTF8.self))\n\n"
    }

    var anthropicStream: [String] {
        [
            sse("message_start", ["type": "message_start", "message": [
                "id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [],
                "model": "claude-3-5-sonnet-20240620", "stop_reason": NSNull(), "stop_sequence": NSNull(),
                "usage": ["input_tokens": 25, "output_tokens": 1]]]),
            sse("content_block_start", ["type": "content_block_start", "index": 0, "content_block": ["type": "text", "text": ""]]),
            sse("ping", ["type": "ping"]),
            sse("content_block_delta", ["type": "content_block_delta", "index": 0, "delta": ["type": "text_delta", "text": "Hello"]]),
            sse("content_block_delta", ["type": "content_block_delta", "index": 0, "delta": ["type": "text_delta", "text": "!"]]),
            sse("content_block_stop", ["type": "content_block_stop", "index": 0]),
            sse("message_delta", ["type": "message_delta", "delta": ["stop_reason": "end_turn", "stop_sequence": NSNull()],
                                  "usage": ["output_tokens": 15]]),
            sse("message_stop", ["type": "message_stop"]),
        ]
    }

    func anthropic(_ server: TestServer) throws -> any LanguageModel {
        var settings = LLMSettings()
        settings.provider = "anthropic"
        settings.model = "claude-3-5-sonnet-20240620"
        settings.baseURL = server.baseURL
        settings.apiKeyEnv = "LECTERN_TEST_ANTHROPIC_KEY"
        var http = HTTPSettings()
        http.maxRetries = 2
        return try XCTUnwrap(LanguageModelCatalog.make(settings, http: http, environment: ["LECTERN_TEST_ANTHROPIC_KEY": "sk-ant-test"]))
    }

    func ollama(_ server: TestServer) throws -> any LanguageModel {
        var settings = LLMSettings()
        settings.provider = "ollama"
        settings.model = "llama3.2"
        settings.baseURL = server.baseURL
        return try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
    }

    /// Collects the pieces a stream hands over, with when each arrived.
    final class Pieces: @unchecked Sendable {
        var texts: [String] = []
        var times: [ContinuousClock.Instant] = []
        func add(_ text: String) {
            texts.append(text)
            times.append(.now)
        }
    }

    func sentBody(_ server: TestServer) throws -> JSONValue {
        try XCTUnwrap(JSONValue.parse(try XCTUnwrap(server.requests().first?["body"] as? String)))
    }

    func testAnthropicServerSentEventsArriveAsTheyAreSent() throws {
        let server = try TestServer(routes: ["/v1/messages": [
            "headers": ["Content-Type": "text/event-stream"], "chunks": anthropicStream, "chunk_delay": 0.15]])
        defer { server.stop() }
        let pieces = Pieces()
        let response = try anthropic(server).stream(ChatRequest(messages: [.user("Hello")], maxTokens: 64)) { pieces.add($0) }
        XCTAssertEqual(pieces.texts, ["Hello", "!"])
        XCTAssertEqual(response.text, "Hello!")
        XCTAssertEqual(response.inputTokens, 25)
        XCTAssertEqual(response.outputTokens, 15)
        XCTAssertEqual(response.finishReason, "stop")
        XCTAssertEqual(response.model, "claude-3-5-sonnet-20240620")
        // The pieces came apart, as the server sent them, not all at the end.
        let gap = pieces.times[0].duration(to: pieces.times[1])
        XCTAssertGreaterThan(gap, .milliseconds(100))
        XCTAssertEqual(try sentBody(server)["stream"], .bool(true))
    }

    func testAnAnthropicAnswerCutAtMaxTokensSaysLength() throws {
        var events = anthropicStream
        events[6] = sse("message_delta", ["type": "message_delta", "delta": ["stop_reason": "max_tokens"], "usage": ["output_tokens": 2]])
        let server = try TestServer(routes: ["/v1/messages": ["headers": ["Content-Type": "text/event-stream"], "chunks": events]])
        defer { server.stop() }
        let response = try anthropic(server).stream(ChatRequest(messages: [.user("Hello")], maxTokens: 2)) { _ in }
        XCTAssertEqual(response.finishReason, "length")
        XCTAssertTrue(response.truncated)
    }

    func testAnErrorEventInTheStreamIsOneLineAndNotRetried() throws {
        let events = Array(anthropicStream.prefix(4)) + [
            sse("error", ["type": "error", "error": ["type": "overloaded_error", "message": "Overloaded"]]),
        ]
        let server = try TestServer(routes: ["/v1/messages": ["headers": ["Content-Type": "text/event-stream"], "chunks": events]])
        defer { server.stop() }
        XCTAssertThrowsError(try anthropic(server).stream(ChatRequest(messages: [.user("Hello")])) { _ in }) { error in
            XCTAssertEqual("\(error)", "anthropic/claude-3-5-sonnet-20240620: the server stopped the answer: overloaded_error: Overloaded")
        }
        XCTAssertEqual(try server.requests().count, 1)
    }

    func testOllamaJSONLinesArriveAsTheyAreSent() throws {
        let lines: [[String: Any]] = [
            ["model": "llama3.2", "created_at": "2023-08-04T08:52:19.385406455-07:00",
             "message": ["role": "assistant", "content": "The", "images": NSNull()], "done": false],
            ["model": "llama3.2", "created_at": "2023-08-04T08:52:19.485406455-07:00",
             "message": ["role": "assistant", "content": " sky is blue."], "done": false],
            ["model": "llama3.2", "created_at": "2023-08-04T19:22:45.499127Z", "message": ["role": "assistant", "content": ""],
             "done": true, "done_reason": "stop", "total_duration": 4883583458, "load_duration": 1334875,
             "prompt_eval_count": 26, "prompt_eval_duration": 342546000, "eval_count": 282, "eval_duration": 4535599000],
        ]
        let server = try TestServer(routes: ["/api/chat": [
            "headers": ["Content-Type": "application/x-ndjson"], "chunks": lines, "chunk_delay": 0.15]])
        defer { server.stop() }
        let pieces = Pieces()
        let response = try ollama(server).stream(ChatRequest(messages: [.user("why is the sky blue?")])) { pieces.add($0) }
        XCTAssertEqual(pieces.texts, ["The", " sky is blue."])
        XCTAssertEqual(response.text, "The sky is blue.")
        XCTAssertEqual(response.inputTokens, 26)
        XCTAssertEqual(response.outputTokens, 282)
        XCTAssertEqual(response.finishReason, "stop")
        XCTAssertGreaterThan(pieces.times[0].duration(to: pieces.times[1]), .milliseconds(100))
        XCTAssertEqual(try sentBody(server)["stream"], .bool(true))
    }

    // MARK: Through the command line, on a terminal

    static let answer = ["No", ". Glycolysis is anaerobic", " and runs without oxygen [1]", "[9]."]

    /// An OpenAI-compatible server that streams to `stream: true` and answers whole otherwise.
    func openAIServer(finishReason: String = "stop") throws -> TestServer {
        func chunk(_ choices: [[String: Any]], usage: [String: Any]? = nil) -> String {
            var event: [String: Any] = ["id": "c1", "object": "chat.completion.chunk", "model": "gpt-test", "choices": choices]
            if let usage { event["usage"] = usage }
            let json = try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
            return "data: " + String(decoding: json, as: UTF8.self) + "\n\n"
        }
        var chunks = Self.answer.map { chunk([["index": 0, "delta": ["content": $0], "finish_reason": NSNull()]]) }
        chunks.append(chunk([["index": 0, "delta": [String: Any](), "finish_reason": finishReason]]))
        chunks.append(chunk([], usage: ["prompt_tokens": 120, "completion_tokens": 14, "total_tokens": 134]))
        chunks.append("data: [DONE]\n\n")
        let whole: [String: Any] = [
            "id": "c1", "object": "chat.completion", "model": "gpt-test",
            "choices": [["index": 0, "message": ["role": "assistant", "content": Self.answer.joined()], "finish_reason": finishReason]],
            "usage": ["prompt_tokens": 120, "completion_tokens": 14, "total_tokens": 134],
        ]
        return try TestServer(routes: [:], replay: [
            ["request": ["method": "POST", "path": "/v1/chat/completions", "json": ["stream": true]],
             "response": ["headers": ["Content-Type": "text/event-stream"], "chunks": chunks, "chunk_delay": 0.1]],
            ["request": ["method": "POST", "path": "/v1/chat/completions", "json": ["stream": false]], "response": ["json": whole]],
        ])
    }

    /// A library of the project's notes and a config naming the server.
    func library(_ server: TestServer, maxTokens: Int = 512) throws -> (TemporaryFolder, [String: String]) {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        try folder.write("lectern.toml", """
            [llm]
            provider = "openai"
            model = "gpt-test"
            base_url = "\(server.url("/v1"))"
            max_tokens = \(maxTokens)

            [http]
            retries = 0
            """)
        let environment = ["LECTERN_CONFIG": folder.file("lectern.toml").path]
        let result = try runLectern(["ingest", TestPaths.corpora.appendingPathComponent("transcripts").path], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        return (folder, environment)
    }

    /// Runs `lectern` with a pseudo-terminal as its stdout and stderr (util-linux `script`):
    /// what a user at a terminal sees, both streams in one.
    func onTerminal(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("util-linux script is not installed") }
        let command = ([TestPaths.lecternBinary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        process.currentDirectoryURL = folder.url
        process.environment = lecternEnvironment(in: folder.url, overrides: environment)
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, String(decoding: data, as: UTF8.self))
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    func testAskOnATerminalStreamsTheAnswerAndAScriptGetsItWhole() throws {
        let server = try openAIServer()
        defer { server.stop() }
        let (folder, environment) = try library(server)

        let screen = try onTerminal(["ask", "does glycolysis need oxygen", "-k", "2"], in: folder, environment: environment)
        XCTAssertTrue(screen.hasPrefix("No. Glycolysis is anaerobic and runs without oxygen [1].\n\n[1] "), screen)
        XCTAssertFalse(screen.contains("[9]"), "a mark naming no passage never shows, even streamed")
        let sent = try XCTUnwrap(JSONValue.parse(try XCTUnwrap(server.requests().last?["body"] as? String)))
        XCTAssertEqual(sent["stream"], .bool(true), "on a terminal the answer is asked for as a stream")
        XCTAssertEqual(sent["stream_options"]?["include_usage"], .bool(true))

        // Through a pipe: the whole answer, and JSON with how it ended.
        var result = try runLectern(["ask", "does glycolysis need oxygen", "-k", "2", "--json", "--no-cache"], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        var answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(answer.answer, "No. Glycolysis is anaerobic and runs without oxygen [1].")
        XCTAssertEqual(answer.finishReason, "stop")
        XCTAssertEqual(answer.inputTokens, 120)
        XCTAssertEqual(answer.outputTokens, 14)
        XCTAssertEqual(answer.cached, false)
        XCTAssertEqual(try server.requests().count, 2)

        result = try runLectern(["ask", "does glycolysis need oxygen", "-k", "2", "--json"], in: folder.url, environment: environment)
        answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(answer.cached, true, "the same question again comes from the cache")
        XCTAssertEqual(try server.requests().count, 2)

        // `logs` lists the questions and answers, newest first; the cached one says so.
        result = try runLectern(["logs", "--json", "-n", "0"], in: folder.url, environment: environment)
        let logs = try JSONDecoder().decode([ModelCallLog].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(logs.map(\.cached), [true, false, false])
        XCTAssertEqual(logs.map(\.subject), Array(repeating: "does glycolysis need oxygen", count: 3))
        XCTAssertEqual(logs[1].response, Self.answer.joined(), "the log keeps what the model answered")
        XCTAssertEqual(logs[2].finishReason, "stop")
        XCTAssertEqual(logs[2].inputTokens, 120)
        XCTAssertTrue(logs[2].prompt?.hasSuffix("Question: does glycolysis need oxygen") == true)
        result = try runLectern(["logs", "-n", "1"], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("# ") && lines[0].hasSuffix("  ask/1  openai/gpt-test"), result.stdout)
        XCTAssertTrue(lines[1].contains("from the cache"), result.stdout)
        XCTAssertEqual(Array(lines[2...5]), ["", "## Question", "does glycolysis need oxygen", ""])
        XCTAssertEqual(lines[6], "## Answer")
        XCTAssertEqual(lines[7], Self.answer.joined())
    }

    func testAnAnswerCutAtMaxTokensSaysSo() throws {
        let server = try openAIServer(finishReason: "length")
        defer { server.stop() }
        let (folder, environment) = try library(server, maxTokens: 14)
        let screen = try onTerminal(["ask", "does glycolysis need oxygen", "-k", "2"], in: folder, environment: environment)
        XCTAssertTrue(screen.contains("lectern: the answer was cut off at llm.max_tokens (14 tokens): raise it to read the rest"), screen)

        let result = try runLectern(["ask", "does glycolysis need oxygen", "-k", "2", "--json"], in: folder.url, environment: environment)
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(answer.finishReason, "length")
    }

    func testSummarizeOnATerminalShowsASpinner() throws {
        let summary = #"{"summary": "Cells make ATP.", "key_points": ["ATP", "atp", "The ATP"]}"#
        let server = try TestServer(routes: ["/v1/chat/completions": ["delay": 0.4, "json": [
            "id": "c1", "object": "chat.completion", "model": "gpt-test",
            "choices": [["index": 0, "message": ["role": "assistant", "content": summary], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20],
        ]]])
        defer { server.stop() }
        let (folder, environment) = try library(server)
        let screen = try onTerminal(["summarize"], in: folder, environment: environment)
        XCTAssertTrue(["⠋", "⠙", "⠹", "⠸"].contains { screen.contains($0 + " ") }, "no spinner turned: \(screen)")
        XCTAssertTrue(screen.contains("summarised"), screen)

        // Through a pipe no spinner is drawn.
        let result = try runLectern(["summarize", "--no-cache"], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("⠋"), result.stderr)
    }

    /// `--provider extractive` is no model by choice: `ask` says what that setting does rather
    /// than that no model is configured.
    func testAskWithTheExtractiveProviderSaysWhatItDoes() throws {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        XCTAssertEqual(try runLectern(["ingest", TestPaths.corpora.appendingPathComponent("transcripts").path], in: folder.url).status, 0)
        let result = try runLectern(["ask", "does glycolysis need oxygen", "-k", "2", "--provider", "extractive"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "lectern: llm.provider is extractive, so there is no answer to write\n")
        XCTAssertTrue(result.stdout.hasPrefix("1. Biology 101, lecture 7: cellular respiration  "), result.stdout)
    }

    /// A small model often repeats a key point in other words' clothing: it is kept once.
    func testKeyPointsThatSayTheSameThingAreKeptOnce() {
        XCTAssertEqual(Summary.distinct(["ATP", "atp.", " The ATP ", "Light reactions", "light-reactions", "Élan", "elan", "  ", "Process"]),
                       ["ATP", "Light reactions", "Élan", "Process"])
        XCTAssertEqual(Summary(text: "t", keyPoints: ["Cells", "cell", "Mitochondria"]).keyPoints, ["Cells", "Mitochondria"])
        XCTAssertEqual(Summary.distinct(["Glass", "glass"]), ["Glass"], "a word ending in ss is no plural")
        XCTAssertEqual(Summary.distinct(["…", "…", "-"]), ["…", "-"], "a point of punctuation is kept, once")
    }
}
