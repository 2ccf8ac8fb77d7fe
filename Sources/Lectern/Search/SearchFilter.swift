/// Narrows a search to some sources (path, URI or short id; a folder matches what is in it)
/// and document types (`markdown`, `pdf`, `srt` …).
public struct SearchFilter: Sendable, Equatable {
    var sources: [String]
    var types: [String]

    public init(sources: [String] = [], types: [String] = []) {
        self.sources = sources
        self.types = types
    }

    var isEmpty: Bool { sources.isEmpty && types.isEmpty }
}
