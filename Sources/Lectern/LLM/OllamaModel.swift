import Foundation

/// Ollama's native `POST {base}/api/chat` (not streamed), with a JSON Schema as `format`
/// (Ollama constrains decoding to it) and the context window as `options.num_ctx`.
public struct OllamaModel: LanguageModel {
    public static let defaultBaseURL = "http://127.0.0.1:11434"
    public let info: LanguageModelInfo
    let transport: ProviderTransport

    public func complete(_ request: ChatRequest) throws -> ChatResponse {
        var body: [String: JSONValue] = [
            "model": .string(info.model),
            "messages": .array(request.messages.map(\.json)),
            "stream": false,
            "options": [
                "temperature": .number(request.temperature),
                "num_predict": .number(Double(request.maxTokens)),
                "num_ctx": .number(Double(info.contextTokens)),
            ],
        ]
        if let schema = request.schema { body["format"] = schema.value }
        let answer = try transport.post("api/chat", headers: transport.bearer, body: .object(body))
        guard let text = answer["message"]?["content"]?.stringValue else {
            throw LecternError(.languageModel, transport.subject, "the answer has no message.content")
        }
        return ChatResponse(
            text: text,
            inputTokens: answer["prompt_eval_count"]?.intValue ?? 0,
            outputTokens: answer["eval_count"]?.intValue ?? 0,
            model: answer["model"]?.stringValue ?? info.model,
            truncated: answer["done_reason"]?.stringValue == "length")
    }
}
