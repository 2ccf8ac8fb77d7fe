import Foundation
import XCTest
@testable import Lectern

/// The Anthropic and Ollama wire formats, which no server here speaks, against the loopback
/// test server replaying the examples of their published API references:
/// - Anthropic Messages API, https://docs.anthropic.com/en/api/messages (request with
///   `x-api-key` and `anthropic-version: 2023-06-01`, the "Hello, world" example and its
///   `msg_…` response) and https://docs.anthropic.com/en/api/errors (the
///   `{"type": "error", "error": {"type": …, "message": …}}` shape, 429 `rate_limit_error`
///   with `retry-after`).
/// - Ollama, https://github.com/ollama/ollama/blob/main/docs/api.md, "Chat request (Structured
///   outputs)" (the "Ollama is 22 years old" example) and "Chat request (No streaming)" (its
///   "Hello! How are you today?" response), and https://docs.ollama.com/api/errors (`{"error": "…"}`
///   bodies; 429 Too Many Requests when a rate limit is exceeded).
final class ProviderWireTests: XCTestCase {
    static let anthropicKey = "sk-ant-api03-lectern-test-key-0123456789"

    /// The back-off waits the models' HTTP client asks for, recorded instead of slept.
    let pauses = HTTPClientTests.RecordedPauses()

    func anthropic(_ server: TestServer, retries: Int = 3) throws -> any LanguageModel {
        var settings = LLMSettings()
        settings.provider = "anthropic"
        settings.model = "claude-3-5-sonnet-20240620"
        settings.baseURL = server.baseURL
        settings.apiKeyEnv = "LECTERN_TEST_ANTHROPIC_KEY"
        var http = HTTPSettings()
        http.maxRetries = retries
        return try XCTUnwrap(LanguageModelCatalog.make(settings, http: http, environment: ["LECTERN_TEST_ANTHROPIC_KEY": Self.anthropicKey], pause: pauses.pause))
    }

    func ollama(_ server: TestServer, retries: Int = 3) throws -> any LanguageModel {
        var settings = LLMSettings()
        settings.provider = "ollama"
        settings.model = "llama3.1"
        settings.baseURL = server.baseURL
        var http = HTTPSettings()
        http.maxRetries = retries
        return try XCTUnwrap(LanguageModelCatalog.make(settings, http: http, environment: [:], pause: pauses.pause))
    }

    nonisolated(unsafe) static let anthropicHello: [String: Any] = [
        "id": "msg_012899dyMDyCX4FgMNNbao8k", "type": "message", "role": "assistant", "model": "claude-3-5-sonnet-20240620",
        "content": [["type": "text", "text": "Hello! How can I assist you today?"]],
        "stop_reason": "end_turn", "stop_sequence": NSNull(), "usage": ["input_tokens": 10, "output_tokens": 30],
    ]

    func body(_ request: [String: Any]) throws -> [String: Any] {
        let text = try XCTUnwrap(request["body"] as? String)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testAnthropicRequestShapeAndAnswer() throws {
        let server = try TestServer(routes: ["/v1/messages": ["json": Self.anthropicHello]])
        defer { server.stop() }
        let response = try anthropic(server).complete(ChatRequest(
            messages: [.system("You are a patient tutor."), .user("Hello, world")], maxTokens: 1024))
        XCTAssertEqual(response.text, "Hello! How can I assist you today?")
        XCTAssertEqual(response.inputTokens, 10)
        XCTAssertEqual(response.outputTokens, 30)
        XCTAssertEqual(response.model, "claude-3-5-sonnet-20240620")

        let recorded = try XCTUnwrap(server.requests().first)
        XCTAssertEqual(recorded["method"] as? String, "POST")
        XCTAssertEqual(recorded["path"] as? String, "/v1/messages")
        let headers = try XCTUnwrap(recorded["headers"] as? [String: String])
        XCTAssertEqual(headers["x-api-key"], Self.anthropicKey)
        XCTAssertEqual(headers["anthropic-version"], "2023-06-01")
        XCTAssertEqual(headers["content-type"], "application/json")
        XCTAssertNil(headers["authorization"], "Anthropic takes the key in x-api-key only")
        let sent = try body(recorded)
        XCTAssertEqual(sent["model"] as? String, "claude-3-5-sonnet-20240620")
        XCTAssertEqual(sent["max_tokens"] as? Int, 1024)
        XCTAssertEqual(sent["system"] as? String, "You are a patient tutor.", "the system prompt goes apart")
        let messages = try XCTUnwrap(sent["messages"] as? [[String: String]])
        XCTAssertEqual(messages, [["role": "user", "content": "Hello, world"]], "no system message among the messages")
    }

    struct Quiz: Decodable, Sendable { var question: String; var answer: String }

    func testAnthropicStructuredOutputIsAskedForInThePromptAndRepairedOnce() throws {
        let schema = JSONSchema(name: "quiz", [
            "type": "object",
            "properties": ["question": ["type": "string", "minLength": 1], "answer": ["type": "string", "minLength": 1]],
            "required": ["question", "answer"],
        ])
        func reply(_ text: String) -> [String: Any] {
            var message = Self.anthropicHello
            message["content"] = [["type": "text", "text": text]]
            return message
        }
        // First answer misses "answer"; the re-ask (three messages) gets a conforming one.
        let server = try TestServer(routes: [:], replay: [
            ["request": ["path": "/v1/messages", "json": ["messages": [["role": "user"]]]],
             "response": ["json": reply(#"{"question": "What does ATP stand for?"}"#)]],
            ["request": ["path": "/v1/messages", "json": ["messages": [["role": "user"], ["role": "assistant"], ["role": "user"]]]],
             "response": ["json": reply(#"{"question": "What does ATP stand for?", "answer": "Adenosine triphosphate"}"#)]],
        ])
        defer { server.stop() }
        let generated = try anthropic(server).generate(
            Quiz.self, request: ChatRequest(messages: [.user("Write one quiz question about ATP.")]), schema: schema)
        XCTAssertEqual(generated.value.answer, "Adenosine triphosphate")
        XCTAssertEqual(generated.responses.count, 2)

        let requests = try server.requests()
        XCTAssertEqual(requests.count, 2, "exactly one repair")
        let first = try body(requests[0])
        XCTAssertTrue((first["system"] as? String ?? "").contains("\"required\":[\"question\",\"answer\"]"), "the schema is in the system prompt")
        let repair = try XCTUnwrap(try body(requests[1])["messages"] as? [[String: String]])
        XCTAssertTrue(repair[2]["content"]?.contains("missing required property 'answer'") ?? false, "the re-ask names the validation error")
    }

    /// The documented 429 body (https://docs.anthropic.com/en/api/errors, "Error shapes").
    nonisolated(unsafe) static let anthropicRateLimit: [String: Any] = [
        "type": "error", "error": ["type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"],
    ]

    func testAnthropicRateLimitWithRetryAfterThenSuccess() throws {
        let server = try TestServer(routes: ["/v1/messages": [
            "json": Self.anthropicHello, "fail_first": 1, "fail_status": 429,
            "fail_headers": ["retry-after": "7"], "fail_json": Self.anthropicRateLimit,
        ]])
        defer { server.stop() }

        let response = try anthropic(server).complete(ChatRequest(messages: [.user("Hello, world")]))
        XCTAssertEqual(response.outputTokens, 30)
        XCTAssertEqual(try server.requests().count, 2, "one 429, one retry")
        XCTAssertEqual(pauses.all, [7], "the retry waited the 7 seconds retry-after asked for, and no other")
    }

    func testAnthropicErrorBodyBecomesOneClearLine() throws {
        let server = try TestServer(routes: ["/v1/messages": [
            "status": 429, "headers": ["retry-after": "0"], "json": Self.anthropicRateLimit,
        ]])
        defer { server.stop() }
        XCTAssertThrowsError(try anthropic(server, retries: 1).complete(ChatRequest(messages: [.user("Hello, world")]))) { error in
            let message = "\(error)"
            XCTAssertFalse(message.contains("\n"))
            XCTAssertTrue(message.hasPrefix("anthropic/claude-3-5-sonnet-20240620: HTTP 429"), message)
            XCTAssertTrue(message.contains("rate_limit_error: Number of request tokens has exceeded your per-minute rate limit"), message)
            XCTAssertTrue(message.contains("after 2 attempts"), message)
            XCTAssertFalse(message.contains(Self.anthropicKey))
        }
    }

    struct Availability: Decodable, Sendable { var age: Int; var available: Bool }

    func testOllamaStructuredOutputsExample() throws {
        let schema = JSONSchema(name: "availability", [
            "type": "object",
            "properties": ["age": ["type": "integer"], "available": ["type": "boolean"]],
            "required": ["age", "available"],
        ])
        let server = try TestServer(routes: [:], replay: [[
            "request": ["method": "POST", "path": "/api/chat", "json": [
                "model": "llama3.1", "stream": false,
                "format": ["type": "object", "properties": ["age": ["type": "integer"], "available": ["type": "boolean"]],
                           "required": ["age", "available"]],
                "options": ["temperature": 0],
            ]],
            "response": ["json": [
                "model": "llama3.1", "created_at": "2024-12-06T00:46:58.265747Z",
                "message": ["role": "assistant", "content": "{\"age\": 22, \"available\": false}"],
                "done_reason": "stop", "done": true, "total_duration": 2254970291, "load_duration": 574751416,
                "prompt_eval_count": 34, "prompt_eval_duration": 1502000000, "eval_count": 12, "eval_duration": 175000000,
            ]],
        ]])
        defer { server.stop() }
        let question = "Ollama is 22 years old and busy saving the world. Return a JSON object with the age and availability."
        let generated = try ollama(server).generate(Availability.self, request: ChatRequest(messages: [.user(question)]), schema: schema)
        XCTAssertEqual(generated.value.age, 22)
        XCTAssertEqual(generated.value.available, false)
        XCTAssertEqual(generated.responses[0].inputTokens, 34)
        XCTAssertEqual(generated.responses[0].outputTokens, 12)
        let sent = try body(try XCTUnwrap(server.requests().first))
        XCTAssertEqual((sent["messages"] as? [[String: String]])?.first?["content"], question)
        XCTAssertNotNil((sent["options"] as? [String: Any])?["num_ctx"], "the context window is passed on")
    }

    func testOllamaErrorBodyBecomesOneClearLine() throws {
        let server = try TestServer(routes: ["/api/chat": ["status": 404, "json": ["error": "model 'llama3.1' not found, try pulling it first"]]])
        defer { server.stop() }
        XCTAssertThrowsError(try ollama(server).complete(ChatRequest(messages: [.user("why is the sky blue?")]))) { error in
            XCTAssertEqual("\(error)", "ollama/llama3.1: HTTP 404 Not Found: model 'llama3.1' not found, try pulling it first")
        }
        XCTAssertEqual(try server.requests().count, 1, "a 404 is not retried")
    }

    /// Ollama answers 429 Too Many Requests "when a rate limit is exceeded", with the message in
    /// `error` (https://docs.ollama.com/api/errors; the page gives the shape, not a 429 text).
    static let ollamaRateLimit = ["error": "too many requests, please retry later"]

    nonisolated(unsafe) static let ollamaHello: [String: Any] = [
        "model": "llama3.1", "created_at": "2023-12-12T14:13:43.416799Z",
        "message": ["role": "assistant", "content": "Hello! How are you today?"],
        "done": true, "total_duration": 5191566416, "load_duration": 2154458, "prompt_eval_count": 26,
        "prompt_eval_duration": 383809000, "eval_count": 298, "eval_duration": 4799921000,
    ]

    func testOllamaRateLimitWithRetryAfterThenSuccess() throws {
        let server = try TestServer(routes: ["/api/chat": [
            "json": Self.ollamaHello, "fail_first": 1, "fail_status": 429,
            "fail_headers": ["Retry-After": "3"], "fail_json": Self.ollamaRateLimit,
        ]])
        defer { server.stop() }
        let response = try ollama(server).complete(ChatRequest(messages: [.user("why is the sky blue?")]))
        XCTAssertEqual(response.text, "Hello! How are you today?")
        XCTAssertEqual(response.outputTokens, 298)
        XCTAssertEqual(try server.requests().count, 2, "one 429, one retry")
        XCTAssertEqual(pauses.all, [3], "the retry waited the 3 seconds Retry-After asked for, and no other")
    }

    func testOllamaRateLimitThatNeverLiftsIsOneClearLine() throws {
        let server = try TestServer(routes: ["/api/chat": ["status": 429, "headers": ["Retry-After": "0"], "json": Self.ollamaRateLimit]])
        defer { server.stop() }
        XCTAssertThrowsError(try ollama(server, retries: 2).complete(ChatRequest(messages: [.user("why is the sky blue?")]))) { error in
            XCTAssertEqual("\(error)", "ollama/llama3.1: HTTP 429 Too Many Requests: too many requests, please retry later (after 3 attempts)")
        }
        XCTAssertEqual(try server.requests().count, 3, "the first try and two retries, then it gives up")
    }

    func testOpenAICompatibleRequestShape() throws {
        let server = try TestServer(routes: ["/v1/chat/completions": ["json": [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o-mini",
            "choices": [["index": 0, "message": ["role": "assistant", "content": "{\"colour\": \"green\"}"], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 19, "completion_tokens": 6, "total_tokens": 25],
        ]]])
        defer { server.stop() }
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "gpt-4o-mini"
        settings.baseURL = server.url("/v1")
        settings.apiKeyEnv = "LECTERN_TEST_OPENAI_KEY"
        let model = try XCTUnwrap(LanguageModelCatalog.make(settings, environment: ["LECTERN_TEST_OPENAI_KEY": "sk-test-openai-0000"]))
        let schema = JSONSchema(name: "colour", ["type": "object", "properties": ["colour": ["type": "string"]], "required": ["colour"]])
        let response = try model.complete(ChatRequest(messages: [.system("Be brief."), .user("Grass?")], maxTokens: 20, schema: schema))
        XCTAssertEqual(response.inputTokens, 19)
        let recorded = try XCTUnwrap(server.requests().first)
        XCTAssertEqual((recorded["headers"] as? [String: String])?["authorization"], "Bearer sk-test-openai-0000")
        let sent = try body(recorded)
        XCTAssertEqual((sent["messages"] as? [[String: String]])?.map { $0["role"] ?? "" }, ["system", "user"])
        let format = try XCTUnwrap(sent["response_format"] as? [String: Any])
        XCTAssertEqual(format["type"] as? String, "json_schema")
        XCTAssertEqual((format["json_schema"] as? [String: Any])?["name"] as? String, "colour")
        XCTAssertNotNil((format["json_schema"] as? [String: Any])?["schema"])
    }

    func testAnAnswerCutOffAtMaxTokensIsNamedAsSuchAndNotReasked() throws {
        let server = try TestServer(routes: ["/v1/chat/completions": ["json": [
            "id": "chatcmpl-2", "object": "chat.completion", "model": "gpt-4o-mini",
            "choices": [["index": 0, "message": ["role": "assistant", "content": "{\"summary\": \"Cells make\", \"key_points\": [\"ATP\"], \"more"],
                         "finish_reason": "length"]],
            "usage": ["prompt_tokens": 40, "completion_tokens": 16, "total_tokens": 56],
        ]]])
        defer { server.stop() }
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "gpt-4o-mini"
        settings.baseURL = server.url("/v1")
        let model = try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
        XCTAssertThrowsError(try model.generate(Summary.self, request: ChatRequest(messages: [.user("Summarise.")], maxTokens: 16),
                                                schema: ModelSummarizer.schema)) { error in
            XCTAssertEqual("\(error)", "openai/gpt-4o-mini: the answer was cut off at 16 tokens before its JSON was complete (raise llm.max_tokens)")
        }
        XCTAssertEqual(try server.requests().count, 1, "a re-ask would be cut off the same way")
    }

    func testConcurrencyLimitHoldsCallsToOneProviderInLine() throws {
        let server = try TestServer(routes: ["/api/chat": ["delay": 0.4, "json": [
            "model": "llama3.1", "message": ["role": "assistant", "content": "ok"], "done": true, "prompt_eval_count": 3, "eval_count": 1,
        ]]])
        defer { server.stop() }
        var settings = LLMSettings()
        settings.provider = "ollama"
        settings.model = "llama3.1"
        settings.baseURL = server.baseURL
        settings.maxConcurrency = 1
        let model = try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            _ = try? model.complete(ChatRequest(messages: [.user("hi")]))
        }
        let times = try server.requests().compactMap { $0["time"] as? Double }.sorted()
        XCTAssertEqual(times.count, 3)
        for (a, b) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b - a, 0.35, "a second request started while one was in flight")
        }
    }
}
