/// Ollama's native `POST {base}/api/chat`, with a JSON Schema as `format`
/// (Ollama constrains decoding to it) and the context window as `options.num_ctx`.
enum OllamaChat: ChatAPI {
    static let defaultBaseURL = "http://127.0.0.1:11434"
    static let path = "api/chat"

    static func body(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue] {
        var body: [String: JSONValue] = [
            "model": .string(model.model),
            "messages": .array(request.messages.map(\.json)),
            "stream": false,
            "options": [
                "temperature": .number(request.temperature),
                "num_predict": .number(Double(request.maxTokens)),
                "num_ctx": .number(Double(model.contextTokens)),
            ],
        ]
        if let schema = request.schema { body["format"] = schema.value }
        return body
    }

    static let textField = "message.content"
    static func text(in answer: JSONValue) -> String? { answer["message"]?["content"]?.stringValue }

    static let inputTokens = ["prompt_eval_count"]
    static let outputTokens = ["eval_count"]
    static func finishReason(in answer: JSONValue) -> String? { answer["done_reason"]?.stringValue }

    /// One JSON object a line, each with a piece of `message.content`; the last has `done: true`,
    /// `done_reason` and the token counts.
    static let streamFraming = StreamFraming.jsonLines

    static func read(_ event: JSONValue, into state: inout ChatStreamState) -> String? {
        if let model = event["model"]?.stringValue, !model.isEmpty { state.model = model }
        if let error = event["error"] { state.error = error.stringValue ?? error.description }
        if case .bool(true)? = event["done"] {
            state.finishReason = event["done_reason"]?.stringValue ?? "stop"
            state.inputTokens = event["prompt_eval_count"]?.intValue ?? state.inputTokens
            state.outputTokens = event["eval_count"]?.intValue ?? state.outputTokens
        }
        return event["message"]?["content"]?.stringValue
    }
}
