import Foundation

/// `POST {base}/chat/completions` in the OpenAI format, which OpenAI, llama.cpp's server, vLLM,
/// LM Studio and Ollama's `/v1` all speak. A schema goes as `response_format: json_schema`
/// (llama.cpp turns it into a grammar that constrains decoding).
public struct OpenAICompatibleModel: LanguageModel {
    public static let defaultBaseURL = "https://api.openai.com/v1"
    public let info: LanguageModelInfo
    let transport: ProviderTransport

    public func complete(_ request: ChatRequest) throws -> ChatResponse {
        var body: [String: JSONValue] = [
            "model": .string(info.model),
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
        let answer = try transport.post("chat/completions", headers: transport.bearer, body: .object(body))
        guard let message = answer["choices"]?[0]?["message"] else {
            throw LecternError(.languageModel, transport.subject, "the answer has no choices[0].message")
        }
        // Reasoning models may put everything in reasoning_content and leave content empty.
        let text = message["content"]?.stringValue ?? ""
        return ChatResponse(
            text: text,
            inputTokens: answer["usage"]?["prompt_tokens"]?.intValue ?? 0,
            outputTokens: answer["usage"]?["completion_tokens"]?.intValue ?? 0,
            model: answer["model"]?.stringValue ?? info.model,
            truncated: answer["choices"]?[0]?["finish_reason"]?.stringValue == "length")
    }
}
