/// How documents are cut into passages. Part of every document's skip key.
public struct ChunkSettings: Codable, Sendable, Equatable {
    /// At most this many tokens a passage: 256 for MiniLM less `[CLS]` and `[SEP]`.
    var maxTokens: Int
    /// Roughly how many tokens of whole sentences a passage repeats from the one before.
    var overlapTokens: Int
    /// Sections smaller than this may join a sibling inside the same parent.
    var minTokens: Int

    public init(maxTokens: Int = 254, overlapTokens: Int = 32, minTokens: Int = 48) {
        self.maxTokens = maxTokens
        self.overlapTokens = overlapTokens
        self.minTokens = minTokens
    }

    /// The settings and the chunker's version: passages cut another way are cut again.
    var key: String { "max\(maxTokens)-overlap\(overlapTokens)-min\(minTokens)-chunker\(Chunker.version)" }
}
