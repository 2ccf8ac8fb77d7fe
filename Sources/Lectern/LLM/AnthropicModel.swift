import Foundation

/// The Anthropic Messages API: `POST {base}/v1/messages` with `x-api-key` and
/// `anthropic-version`, the system prompt as its own field, text in `content[].text`.
/// It has no schema switch without tools, so structured output is asked for in the system
/// prompt and checked by `generate` (which re-asks once when it does not conform).
public struct AnthropicModel: LanguageModel {
    public static let defaultBaseURL = "https://api.anthropic.com"
    public static let apiVersion = "2023-06-01"
    public let info: LanguageModelInfo
    let transport: ProviderTransport

    public func complete(_ request: ChatRequest) throws -> ChatResponse {
        var system = request.systemText
        if let schema = request.schema {
            let instruction = "Reply with only a JSON value (no prose, no code fence) that conforms to this JSON Schema:\n\(schema.value)"
            system = system.map { $0 + "\n\n" + instruction } ?? instruction
        }
        var body: [String: JSONValue] = [
            "model": .string(info.model),
            "max_tokens": .number(Double(request.maxTokens)),
            "temperature": .number(request.temperature),
            "messages": .array(request.conversation.map(\.json)),
        ]
        if let system { body["system"] = .string(system) }
        var headers = ["anthropic-version": Self.apiVersion]
        if let key = transport.apiKey { headers["x-api-key"] = key }
        let answer = try transport.post("v1/messages", headers: headers, body: .object(body))
        guard let blocks = answer["content"]?.arrayValue else {
            throw LecternError(.languageModel, transport.subject, "the answer has no content")
        }
        let text = blocks.filter { $0["type"]?.stringValue == "text" }.compactMap { $0["text"]?.stringValue }.joined()
        return ChatResponse(
            text: text,
            inputTokens: answer["usage"]?["input_tokens"]?.intValue ?? 0,
            outputTokens: answer["usage"]?["output_tokens"]?.intValue ?? 0,
            model: answer["model"]?.stringValue ?? info.model,
            truncated: answer["stop_reason"]?.stringValue == "max_tokens")
    }
}
