import Foundation

/// Whether a curriculum still matches its sources. A source ingested again with new content
/// gets new passages, and a removed one has none: the topics drawing on it cite passages that
/// are gone, so cards, exports and contexts made from the old build would silently leave them
/// out (a smaller deck reported as success). Those commands ask here first and refuse with the
/// command that brings the curriculum up to date.
public struct CurriculumFreshness: Sendable {
    let store: any LibraryBackend

    public init(store: LibraryStore) {
        self.init(backend: store)
    }

    public init(library: Library) {
        self.init(backend: library.backend)
    }

    init(backend: any LibraryBackend) {
        self.store = backend
    }

    /// A source that changed since the build.
    public struct ChangedSource: Codable, Sendable, Equatable {
        public var uri: String
        public var title: String
        /// False when the document is no longer in the library.
        public var present: Bool
    }

    /// The sources of `curriculum` whose document is gone or holds other content than when it
    /// was built; empty when the curriculum is up to date.
    func changedSources(of curriculum: Curriculum) throws -> [ChangedSource] {
        try curriculum.sources.compactMap { source in
            let current = try store.document(uri: source.uri)
            guard let current else { return ChangedSource(uri: source.uri, title: source.title, present: false) }
            return current.contentHash == source.contentHash && current.id == source.documentId
                ? nil : ChangedSource(uri: source.uri, title: source.title, present: true)
        }
    }

    /// Throws a `stale` error naming the curriculum, what changed and the command to run when
    /// the curriculum `name` is older than its sources; does nothing for an unknown name (the
    /// caller says that in its own words).
    public func requireCurrent(_ name: String) throws {
        guard let curriculum = try store.curriculum(named: name) else { return }
        try requireCurrent(curriculum)
    }

    /// `requireCurrent(_:)` for a curriculum already read.
    func requireCurrent(_ curriculum: Curriculum) throws {
        let name = curriculum.name
        let changed = try changedSources(of: curriculum)
        guard let first = changed.first else { return }
        let shown = URL(string: first.uri).flatMap { $0.isFileURL ? DisplayPath.of($0.path) : nil } ?? first.uri
        let what = first.present ? "\(shown) changed" : "\(shown) was removed"
        let more = changed.count > 1 ? " (and \(changed.count - 1) more source\(changed.count == 2 ? "" : "s"))" : ""
        throw LecternError(.stale, name,
                           "built before its sources changed: \(what)\(more) since; run `lectern curriculum build \(name)` to bring it up to date")
    }
}
