import Foundation

/// An OpenAI-compatible `/v1/embeddings` server: OpenAI itself, llama.cpp's server, vLLM,
/// LM Studio, Ollama's `/v1`. Chosen as `openai:<model>`.
public struct OpenAIEmbedder: Embedder {
    public static let prefix = "openai"
    public static let defaultURL = "https://api.openai.com/v1"

    public let info: EmbedderInfo
    /// The server's tokenizer is unknown here; the estimate errs on the long side.
    public let tokenCounter: any TokenCounter = ApproximateTokenCounter()
    let call: RemoteEmbeddingCall

    public init(model: String, settings: RemoteEmbeddingSettings, http: HTTPSettings = HTTPSettings(),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let base = (settings.url ?? Self.defaultURL).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var settings = settings
        // OpenAI's own API always needs a key: default to the usual variable there, and only there.
        if settings.apiKeyEnv == nil, base == Self.defaultURL { settings.apiKeyEnv = "OPENAI_API_KEY" }
        call = try RemoteEmbeddingCall(baseURL: base, model: model, settings: settings, http: http, environment: environment, wire: Self.wire)
        info = try call.info(prefix: Self.prefix, dimension: settings.dimensions)
    }

    public func embed(_ texts: [String]) throws -> [[Float]] {
        try call.embed(texts, dimension: info.dimension)
    }

    /// `{"model", "input": [...], "encoding_format": "float"}` → `{"data": [{"index", "embedding"}]}`.
    static let wire = RemoteEmbeddingCall.Wire(
        path: "/embeddings",
        body: { model, texts in ["model": model, "input": texts, "encoding_format": "float"] },
        vectors: { answer, endpoint in
            guard let data = answer["data"] as? [[String: Any]] else {
                throw LecternError(.invalidInput, Redaction.url(endpoint), "the answer has no \"data\" list of embeddings")
            }
            // Items carry their index; servers may answer out of order.
            let ordered = data.enumerated().sorted { ($0.element["index"] as? Int ?? $0.offset) < ($1.element["index"] as? Int ?? $1.offset) }
            return ordered.map { $0.element["embedding"] ?? NSNull() }
        })
}
