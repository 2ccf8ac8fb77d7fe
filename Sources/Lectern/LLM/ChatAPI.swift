/// One provider's chat wire format: where a request goes, what it sends, and where the
/// answer keeps its text and token counts. `ProviderModel` does the rest, the same way for
/// every provider.
protocol ChatAPI: Sendable {
    /// The public API, used when `llm.base_url` is not set.
    static var defaultBaseURL: String { get }
    /// Under the base URL: `chat/completions`.
    static var path: String { get }
    /// What the request carries besides its JSON body, the key among it.
    static func headers(key: String?) -> [String: String]
    static func body(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue]
    /// The answer's text; nil when the answer has none where `textField` says.
    static func text(in answer: JSONValue) -> String?
    static var textField: String { get }
    /// Where the answer counts the tokens read and written.
    static var inputTokens: [String] { get }
    static var outputTokens: [String] { get }
    /// Why the model stopped, as `ChatResponse.finishReason` words it (`stop`, `length`, …).
    static func finishReason(in answer: JSONValue) -> String?

    /// How a streamed answer is framed, and the request that asks for one.
    static var streamFraming: StreamFraming { get }
    static func streamBody(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue]
    /// Reads one event of a streamed answer into `state`; returns the text it adds.
    static func read(_ event: JSONValue, into state: inout ChatStreamState) -> String?
}

extension ChatAPI {
    /// The model that speaks this API.
    static func model(info: LanguageModelInfo, transport: ProviderTransport) -> any LanguageModel {
        ProviderModel<Self>(info: info, transport: transport)
    }

    /// The request body with `stream: true`.
    static func streamBody(_ request: ChatRequest, model: LanguageModelInfo) -> [String: JSONValue] {
        var body = body(request, model: model)
        body["stream"] = true
        return body
    }

    /// `Authorization: Bearer <key>`: how OpenAI-compatible servers and Ollama take a key.
    static func headers(key: String?) -> [String: String] {
        key.map { ["Authorization": "Bearer " + $0] } ?? [:]
    }
}
