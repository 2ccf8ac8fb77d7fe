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
            finishReason: API.finishReason(in: answer))
    }

    func stream(_ request: ChatRequest, onText: @escaping (String) -> Void) throws -> ChatResponse {
        var state = ChatStreamState()
        let whole = try transport.stream(API.path, headers: API.headers(key: transport.apiKey), body: .object(API.streamBody(request, model: info)),
                                         framing: API.streamFraming) { event in
            if let piece = API.read(event, into: &state), !piece.isEmpty {
                state.text += piece
                onText(piece)
            }
        }
        if let error = state.error {
            throw LecternError(.languageModel, transport.subject, transport.redact("the server stopped the answer: " + ProviderTransport.oneLine(error, limit: 300)))
        }
        if let whole {
            // The server answered with one JSON body, as if not asked to stream.
            guard let text = API.text(in: whole) else {
                throw LecternError(.languageModel, transport.subject, "the answer has no \(API.textField)")
            }
            if !text.isEmpty { onText(text) }
            return ChatResponse(text: text, inputTokens: whole[path: API.inputTokens]?.intValue ?? 0,
                                outputTokens: whole[path: API.outputTokens]?.intValue ?? 0,
                                model: whole["model"]?.stringValue ?? info.model, finishReason: API.finishReason(in: whole))
        }
        return ChatResponse(text: state.text, inputTokens: state.inputTokens, outputTokens: state.outputTokens,
                            model: state.model ?? info.model, finishReason: state.finishReason)
    }
}
