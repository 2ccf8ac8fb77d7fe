/// What decides whether a document must be read again: the same key means the same passages
/// and vectors, so an ingest reports it `unchanged` and writes nothing.
struct SkipKey: Sendable, Equatable, Codable {
    /// A hash of the content, the reader and its version, the chunk settings and the tokenizer
    /// that counts them: what the passages are cut from.
    var passages: String
    /// `EmbedderInfo.key` of the vectors. `reembed` moves every document to its new embedder
    /// when it switches, so the next ingest has nothing to redo.
    var embedder: String
}
