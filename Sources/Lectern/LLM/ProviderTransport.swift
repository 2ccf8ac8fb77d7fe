import Foundation

/// How a provider reaches its API: the shared HTTP client (timeouts, retries on 429/5xx with
/// Retry-After), the per-provider concurrency limit, and the key, which it keeps out of every
/// error message.
struct ProviderTransport: Sendable {
    let client: HTTPClient
    let limit: ConcurrencyLimit
    /// The API key, if any: sent in a header, never logged, replaced by *** in messages.
    let apiKey: String?
    let timeout: Double
    /// Names the model in errors: `openai/gpt-4o-mini`.
    let subject: String

    /// POSTs `body` as JSON and returns the parsed answer; a non-2xx status or a body that is
    /// not JSON becomes one line naming the model, the status and the provider's message.
    func post(_ url: String, headers: [String: String], body: JSONValue) throws -> JSONValue {
        let request = HTTPRequest.json(url, body: body.canonicalData, headers: headers, timeout: timeout)
        let response: HTTPResponse
        do {
            response = try limit.run { try client.send(request) }
        } catch let error as LecternError {
            throw LecternError(error.code, subject, redact("\(Redaction.url(url)): \(error.reason)"))
        }
        guard response.isSuccess else {
            let message = Self.errorMessage(in: response.body)
            let retried = response.attempts > 1 ? " (after \(response.attempts) attempts)" : ""
            throw LecternError(.languageModel, subject, redact("HTTP \(response.statusLine)\(message.map { ": " + $0 } ?? "")\(retried)"))
        }
        guard let value = JSONValue.parse(response.body) else {
            throw LecternError(.languageModel, subject, redact("the answer from \(Redaction.url(url)) is not JSON: " + Self.oneLine(response.text, limit: 160)))
        }
        return value
    }

    /// `text` with the key, and any partial echo of it, replaced by ***.
    func redact(_ text: String) -> String {
        Redaction.text(text, hidingKey: apiKey)
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
