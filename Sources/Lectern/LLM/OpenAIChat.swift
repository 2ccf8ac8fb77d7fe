/// `POST {base}/chat/completions` in the OpenAI format, which OpenAI, llama.cpp's server, vLLM,
/// LM Studio and Ollama's `/v1` all speak. A schema goes as `response_format: json_schema`
/// (llama.cpp turns it into a grammar that constrains decoding).
enum OpenAIChat: ChatAPI {
    static let defaultBaseURL = "https://api.openai.com/v1"
    static let path = "chat/completions"

    static func body(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue] {
        var body: [String: JSONValue] = [
            "model": .string(model.model),
            "messages": .array(request.messages.map(\.json)),
            "max_tokens": .number(Double(request.maxTokens)),
            "temperature": .number(request.temperature),
            "stream": false,
        ]
        if let schema = request.schema {
            body["response_format"] = [
                "type": "json_schema",
                "json_schema": ["name": .string(schema.name), "schema": schema.value, "strict": true],
            ]
        }
        return body
    }

    static let textField = "choices[0].message"
    /// Reasoning models may put everything in reasoning_content and leave content empty.
    static func text(in answer: JSONValue) -> String? {
        answer["choices"]?[0]?["message"].map { $0["content"]?.stringValue ?? "" }
    }

    static let inputTokens = ["usage", "prompt_tokens"]
    static let outputTokens = ["usage", "completion_tokens"]
    static func finishReason(in answer: JSONValue) -> String? { answer["choices"]?[0]?["finish_reason"]?.stringValue }

    /// Chunks of `choices[0].delta.content` as server-sent events, ended by `data: [DONE]`;
    /// `stream_options.include_usage` asks for the token counts in a last chunk.
    static let streamFraming = StreamFraming.serverSentEvents

    static func streamBody(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue] {
        var body = body(request, model: model)
        body["stream"] = true
        body["stream_options"] = ["include_usage": true]
        return body
    }

    static func read(_ event: JSONValue, into state: inout ChatStreamState) -> String? {
        if let model = event["model"]?.stringValue, !model.isEmpty { state.model = model }
        if let usage = event["usage"], usage.objectValue != nil {
            state.inputTokens = usage["prompt_tokens"]?.intValue ?? state.inputTokens
            state.outputTokens = usage["completion_tokens"]?.intValue ?? state.outputTokens
        }
        if let error = event["error"] { state.error = error["message"]?.stringValue ?? error.stringValue ?? error.description }
        guard let choice = event["choices"]?[0] else { return nil }
        if let reason = choice["finish_reason"]?.stringValue { state.finishReason = reason }
        return choice["delta"]?["content"]?.stringValue
    }
}
