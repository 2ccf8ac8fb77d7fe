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
    let model: String
    let batch: Int

    public init(model: String, settings: RemoteEmbeddingSettings, http: HTTPSettings = HTTPSettings(),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let base = (settings.url ?? Self.defaultURL).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var settings = settings
        // OpenAI's own API always needs a key: default to the usual variable there, and only there.
        if settings.apiKeyEnv == nil, base == Self.defaultURL { settings.apiKeyEnv = "OPENAI_API_KEY" }
        call = RemoteEmbeddingCall(client: HTTPClient(settings: http), endpoint: base + "/embeddings",
                                   apiKey: try settings.apiKey(environment: environment))
        self.model = model
        batch = max(1, settings.batch)
        let dimension = try settings.dimensions ?? Self.request(["dimension probe"], model: model, call: call, dimension: nil)[0].count
        info = EmbedderInfo(name: Self.prefix + ":" + model, model: model, dimension: dimension, version: 1)
    }

    public func embed(_ texts: [String]) throws -> [[Float]] {
        var vectors: [[Float]] = []
        for start in stride(from: 0, to: texts.count, by: batch) {
            vectors += try Self.request(Array(texts[start..<min(start + batch, texts.count)]), model: model, call: call,
                                        dimension: info.dimension)
        }
        return vectors
    }

    /// `{"model", "input": [...], "encoding_format": "float"}` → `{"data": [{"index", "embedding"}]}`.
    static func request(_ texts: [String], model: String, call: RemoteEmbeddingCall, dimension: Int?) throws -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        let json = try call.post(["model": model, "input": texts, "encoding_format": "float"])
        guard let data = json["data"] as? [[String: Any]] else {
            throw LecternError(.invalidInput, Redaction.url(call.endpoint), "the answer has no \"data\" list of embeddings")
        }
        // Items carry their index; servers may answer out of order.
        let ordered = data.enumerated().sorted { ($0.element["index"] as? Int ?? $0.offset) < ($1.element["index"] as? Int ?? $1.offset) }
        return try call.vectors(ordered.map { $0.element["embedding"] ?? NSNull() }, expected: texts.count, dimension: dimension)
    }
}
