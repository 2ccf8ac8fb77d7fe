import Foundation

/// Ollama's native `/api/embed` (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings).
/// Chosen as `ollama:<model>`.
public struct OllamaEmbedder: Embedder {
    public static let prefix = "ollama"
    public static let defaultURL = "http://127.0.0.1:11434"

    public let info: EmbedderInfo
    public let tokenCounter: any TokenCounter = ApproximateTokenCounter()
    let call: RemoteEmbeddingCall
    let model: String
    let batch: Int

    public init(model: String, settings: RemoteEmbeddingSettings, http: HTTPSettings = HTTPSettings(),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let base = (settings.url ?? Self.defaultURL).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        call = RemoteEmbeddingCall(client: HTTPClient(settings: http), endpoint: base + "/api/embed",
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

    /// `{"model", "input": "text" | ["texts"]}` → `{"embeddings": [[...]]}`; one text goes as a
    /// string, as in the API reference's first example.
    static func request(_ texts: [String], model: String, call: RemoteEmbeddingCall, dimension: Int?) throws -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        let input: Any = texts.count == 1 ? texts[0] : texts
        let json = try call.post(["model": model, "input": input])
        guard let embeddings = json["embeddings"] as? [Any] else {
            throw LecternError(.invalidInput, Redaction.url(call.endpoint), "the answer has no \"embeddings\" list")
        }
        return try call.vectors(embeddings, expected: texts.count, dimension: dimension)
    }
}
