/// The Anthropic Messages API: `POST {base}/v1/messages` with `x-api-key` and
/// `anthropic-version`, the system prompt as its own field, text in `content[].text`.
/// It has no schema switch without tools, so structured output is asked for in the system
/// prompt and checked by `generate` (which re-asks once when it does not conform).
enum AnthropicChat: ChatAPI {
    static let defaultBaseURL = "https://api.anthropic.com"
    static let apiVersion = "2023-06-01"
    static let path = "v1/messages"

    static func headers(key: String?) -> [String: String] {
        var headers = ["anthropic-version": apiVersion]
        if let key { headers["x-api-key"] = key }
        return headers
    }

    static func body(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue] {
        var system = request.systemText
        if let schema = request.schema {
            let instruction = "Reply with only a JSON value (no prose, no code fence) that conforms to this JSON Schema:\n\(schema.value)"
            system = system.map { $0 + "\n\n" + instruction } ?? instruction
        }
        var body: [String: JSONValue] = [
            "model": .string(model.model),
            "max_tokens": .number(Double(request.maxTokens)),
            "temperature": .number(request.temperature),
            "messages": .array(request.conversation.map(\.json)),
        ]
        if let system { body["system"] = .string(system) }
        return body
    }

    static let textField = "content"
    static func text(in answer: JSONValue) -> String? {
        answer["content"]?.arrayValue.map { blocks in
            blocks.filter { $0["type"]?.stringValue == "text" }.compactMap { $0["text"]?.stringValue }.joined()
        }
    }

    static let inputTokens = ["usage", "input_tokens"]
    static let outputTokens = ["usage", "output_tokens"]
    static func isTruncated(_ answer: JSONValue) -> Bool { answer["stop_reason"]?.stringValue == "max_tokens" }
}
