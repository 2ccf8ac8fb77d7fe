import Foundation

extension RemoteEmbeddingAPI {
    /// An OpenAI-compatible `/v1/embeddings` server: OpenAI itself, llama.cpp's server, vLLM,
    /// LM Studio, Ollama's `/v1`. `{"model", "input": [...], "encoding_format": "float"}` →
    /// `{"data": [{"index", "embedding"}]}`.
    static let openAI = RemoteEmbeddingAPI(
        prefix: "openai", defaultURL: "https://api.openai.com/v1", defaultKeyVariable: "OPENAI_API_KEY", path: "/embeddings",
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
