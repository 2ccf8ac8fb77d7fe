/// Narrows a search to some sources (path, URI or short id; a folder matches what is in it)
/// and document types (`markdown`, `pdf`, `srt` …).
public struct SearchFilter: Sendable, Equatable {
    var sources: [String]
    var types: [String]
    /// Only these passages (a curriculum's topics: `--curriculum`, `--topic`), when given.
    var passages: Set<Int64>?

    public init(sources: [String] = [], types: [String] = [], passages: Set<Int64>? = nil) {
        self.sources = sources
        self.types = types
        self.passages = passages
    }

    var isEmpty: Bool { sources.isEmpty && types.isEmpty && passages == nil }
}
