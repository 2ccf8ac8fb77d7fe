import Foundation

/// Ollama's native `/api/embed` (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings).
/// Chosen as `ollama:<model>`.
public struct OllamaEmbedder: Embedder {
    public static let prefix = "ollama"
    public static let defaultURL = "http://127.0.0.1:11434"

    public let info: EmbedderInfo
    public let tokenCounter: any TokenCounter = ApproximateTokenCounter()
    let call: RemoteEmbeddingCall

    public init(model: String, settings: RemoteEmbeddingSettings, http: HTTPSettings = HTTPSettings(),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        call = try RemoteEmbeddingCall(baseURL: settings.url ?? Self.defaultURL, model: model, settings: settings, http: http,
                                       environment: environment, wire: Self.wire)
        info = try call.info(prefix: Self.prefix, dimension: settings.dimensions)
    }

    public func embed(_ texts: [String]) throws -> [[Float]] {
        try call.embed(texts, dimension: info.dimension)
    }

    /// `{"model", "input": "text" | ["texts"]}` → `{"embeddings": [[...]]}`; one text goes as a
    /// string, as in the API reference's first example.
    static let wire = RemoteEmbeddingCall.Wire(
        path: "/api/embed",
        body: { model, texts in ["model": model, "input": texts.count == 1 ? texts[0] : texts] },
        vectors: { answer, endpoint in
            guard let embeddings = answer["embeddings"] as? [Any] else {
                throw LecternError(.invalidInput, Redaction.url(endpoint), "the answer has no \"embeddings\" list")
            }
            return embeddings
        })
}
