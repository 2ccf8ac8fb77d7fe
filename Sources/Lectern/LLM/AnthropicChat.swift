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
    static func finishReason(in answer: JSONValue) -> String? { answer["stop_reason"]?.stringValue.map(finishReason) }

    /// `end_turn` and `stop_sequence` are a finished answer (`stop`), `max_tokens` a cut one (`length`).
    static func finishReason(_ stopReason: String) -> String {
        switch stopReason {
        case "end_turn", "stop_sequence": return "stop"
        case "max_tokens": return "length"
        default: return stopReason
        }
    }

    /// Server-sent events: `message_start` (model, input tokens), `content_block_delta`
    /// (`text_delta` pieces), `message_delta` (stop reason, output tokens), `message_stop`;
    /// `error` when the server fails mid-stream.
    static let streamFraming = StreamFraming.serverSentEvents

    static func read(_ event: JSONValue, into state: inout ChatStreamState) -> String? {
        switch event["type"]?.stringValue {
        case "message_start":
            let message = event["message"]
            if let model = message?["model"]?.stringValue { state.model = model }
            state.inputTokens = message?["usage"]?["input_tokens"]?.intValue ?? state.inputTokens
            state.outputTokens = message?["usage"]?["output_tokens"]?.intValue ?? state.outputTokens
        case "content_block_delta":
            if event["delta"]?["type"]?.stringValue == "text_delta" { return event["delta"]?["text"]?.stringValue }
        case "message_delta":
            if let reason = event["delta"]?["stop_reason"]?.stringValue { state.finishReason = finishReason(reason) }
            state.inputTokens = event["usage"]?["input_tokens"]?.intValue ?? state.inputTokens
            state.outputTokens = event["usage"]?["output_tokens"]?.intValue ?? state.outputTokens
        case "error":
            let error = event["error"]
            state.error = [error?["type"]?.stringValue, error?["message"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
        default:
            break
        }
        return nil
    }
}
