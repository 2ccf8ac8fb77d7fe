/// A chat model behind a provider's HTTP API, `API` naming which: the request built, posted
/// through the shared transport, and the answer read, the same way for every provider.
struct ProviderModel<API: ChatAPI>: LanguageModel {
    let info: LanguageModelInfo
    let transport: ProviderTransport

    func complete(_ request: ChatRequest) throws -> ChatResponse {
        let answer = try transport.post(API.path, headers: API.headers(key: transport.apiKey), body: .object(API.body(request, model: info)))
        guard let text = API.text(in: answer) else {
            throw LecternError(.languageModel, transport.subject, "the answer has no \(API.textField)")
        }
        return ChatResponse(
            text: text,
            inputTokens: answer[path: API.inputTokens]?.intValue ?? 0,
            outputTokens: answer[path: API.outputTokens]?.intValue ?? 0,
            model: answer["model"]?.stringValue ?? info.model,
            truncated: API.isTruncated(answer))
    }
}
