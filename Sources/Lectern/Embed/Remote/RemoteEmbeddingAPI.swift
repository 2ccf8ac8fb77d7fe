/// One embedding API's wire format: where it answers, what it is sent, and where the vectors
/// (one a text, in order) are in its answer.
struct RemoteEmbeddingAPI: Sendable {
    /// What users choose it by: `openai` in `openai:<model>`.
    let prefix: String
    /// Its public server, used when `embedding.url` is not set.
    let defaultURL: String
    /// The variable holding the key for the public server when `embedding.api_key_env` is not set.
    var defaultKeyVariable: String?
    /// Appended to the base URL: `/embeddings`, `/api/embed`.
    let path: String
    let body: @Sendable (_ model: String, _ texts: [String]) -> [String: Any]
    /// Throws, naming `endpoint`, when the answer has no vectors where the API puts them.
    let vectors: @Sendable (_ answer: [String: Any], _ endpoint: String) throws -> [Any]

    /// The APIs `EmbedderCatalog` knows by prefix.
    static let all: [RemoteEmbeddingAPI] = [.openAI, .ollama]
}
