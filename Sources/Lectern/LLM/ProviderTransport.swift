import Foundation

/// How a provider reaches its API: where it is, the shared HTTP client (timeouts, retries on
/// 429/5xx with Retry-After), the per-provider concurrency limit, and the key, which it keeps
/// out of every error message. What the models share; each adds only its wire format.
struct ProviderTransport: Sendable {
    /// The API's base URL (`https://api.openai.com/v1`); paths are appended to it.
    let baseURL: String
    let client: HTTPClient
    let limit: ConcurrencyLimit
    /// The API key, if any: sent in a header, never logged, replaced by *** in messages.
    let apiKey: String?
    let timeout: Double
    /// Names the model in errors: `openai/gpt-4o-mini`.
    let subject: String
    /// `llm.context_tokens` as prompts are trimmed to it, named when a server finds them too long.
    var contextTokens: Int?

    /// `path` under the base URL: `chat/completions` → `https://api.openai.com/v1/chat/completions`.
    func endpoint(_ path: String) -> String { EndpointURL.join(baseURL, path) }

    /// POSTs `body` as JSON to `path` and returns the parsed answer; a non-2xx status or a body
    /// that is not JSON becomes one line naming the model, the status and the provider's message.
    func post(_ path: String, headers: [String: String], body: JSONValue) throws -> JSONValue {
        let url = endpoint(path)
        let response = try send(HTTPRequest.json(url, body: body.canonicalData, headers: headers, timeout: timeout))
        guard let value = JSONValue.parse(response.body) else {
            throw LecternError(.languageModel, subject, redact("the answer from \(Redaction.url(url)) is not JSON: " + Self.oneLine(response.text, limit: 160), url: url))
        }
        return value
    }

    /// POSTs `body` and hands each event of the streamed answer to `onEvent` as it arrives.
    /// Returns the whole answer when the server sent one JSON body instead of a stream.
    func stream(_ path: String, headers: [String: String], body: JSONValue, framing: StreamFraming,
                onEvent: @escaping (JSONValue) -> Void) throws -> JSONValue? {
        let url = endpoint(path)
        var request = HTTPRequest.json(url, body: body.canonicalData, headers: headers, timeout: timeout)
        let reader = StreamEventReader(framing: framing)
        let sink = StreamSink(reader: reader, deliver: onEvent)
        request.onBody = { sink.receive($0) }
        let response = try send(request)
        sink.finish()
        if reader.sawEvents { return nil }
        guard let value = JSONValue.parse(response.body) else {
            throw LecternError(.languageModel, subject, redact("the answer from \(Redaction.url(url)) is neither a stream nor JSON: " + Self.oneLine(response.text, limit: 160), url: url))
        }
        return value
    }

    /// Sends `request` within the provider's concurrency limit; a non-2xx status becomes one
    /// line naming the model, the status and the provider's message.
    private func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let url = request.url
        let response: HTTPResponse
        do {
            response = try limit.run { try client.send(request) }
        } catch let error as LecternError {
            throw LecternError(error.code, subject, redact("\(Redaction.url(url)): \(error.reason)"))
        }
        guard response.isSuccess else {
            let message = Self.errorMessage(in: response.body)
            let retried = response.attempts > 1 ? " (after \(response.attempts) attempts)" : ""
            var line = "HTTP \(response.statusLine)\(message.map { ": " + $0 } ?? "")\(retried)"
            if let hint = contextHint(response.body) { line += "; " + hint }
            throw LecternError(.languageModel, subject, redact(line, url: url))
        }
        return response
    }

    /// `text` with the key, any partial echo of it, and the login in `url` (a base URL's
    /// `user:password@`, which a server may echo as its Basic token), replaced by ***.
    func redact(_ text: String, url: String = "") -> String {
        Redaction.text(Redaction.text(text, hidingKey: apiKey), hiding: Redaction.credentials(in: url))
    }

    /// What to change when the server refused a prompt longer than its context window
    /// (llama.cpp's `exceed_context_size_error`, OpenAI's `context_length_exceeded`): the
    /// prompt was trimmed to `llm.context_tokens`, so that setting is larger than the model's.
    func contextHint(_ body: Data) -> String? {
        guard let value = JSONValue.parse(body) else { return nil }
        let error = value["error"]
        let kinds = [error?["type"]?.stringValue, error?["code"]?.stringValue]
        let message = (error?["message"]?.stringValue ?? error?.stringValue ?? "").lowercased()
        guard kinds.contains("exceed_context_size_error") || kinds.contains("context_length_exceeded")
            || message.contains("context size") || message.contains("context length") || message.contains("context window") else { return nil }
        let configured = contextTokens.map { " (\($0))" } ?? ""
        if let limit = error?["n_ctx"]?.intValue {
            return "llm.context_tokens\(configured) is larger than the model's context window: set it to at most \(limit)"
        }
        return "llm.context_tokens\(configured) is larger than the model's context window: set it to the model's context size"
    }

    /// The message in an API's error body: `error.message` (OpenAI, Anthropic), `error` as a
    /// string (Ollama), `message`, `detail`; else the body's first line.
    static func errorMessage(in body: Data) -> String? {
        if let value = JSONValue.parse(body) {
            let candidates: [JSONValue?] = [value["error"]?["message"], value["error"], value["message"], value["detail"]]
            for case .string(let text)? in candidates where !text.isEmpty {
                var line = oneLine(text, limit: 300)
                if let kind = value["error"]?["type"]?.stringValue { line = "\(kind): \(line)" }
                return line
            }
        }
        let text = oneLine(String(decoding: body, as: UTF8.self), limit: 200)
        return text.isEmpty ? nil : text
    }

    static func oneLine(_ text: String, limit: Int) -> String {
        let collapsed = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return collapsed.count > limit ? String(collapsed.prefix(limit)) + "…" : collapsed
    }
}
