import Foundation

/// What a user means by a document reference, the one reading every command and tool shares:
/// a short id (or its first 4+ characters), a path (a folder takes everything under it,
/// relative paths from where the user stands), a document or source URI, or a glob
/// (`'notes/*.md'`) matched as ingest read it. `show`, `rm`, `summarize`, `curriculum build`,
/// `search --source`, `ask --source`, `lectern run`'s stages and the MCP tools all ask here.
public struct DocumentReferences: Sendable {
    let store: any LibraryBackend

    public init(store: LibraryStore) {
        self.store = store
    }

    public init(library: Library) {
        store = library.backend
    }

    init(backend: any LibraryBackend) {
        store = backend
    }

    /// Whether `reference` is a glob pattern rather than a name.
    public static func isGlob(_ reference: String) -> Bool {
        GlobPattern.isPattern(reference)
    }

    /// The documents `reference` names, in URI order; none when it names nothing. A name that
    /// matches wins over the same text read as a glob (a file called `a[1].md`).
    public func documents(_ reference: String) throws -> [StoredDocument] {
        let found = try store.documents(matching: reference, absolutePath: Configuration.resolvePath(reference, base: nil))
        if found.isEmpty, Self.isGlob(reference) { return try store.documents(matchingGlob: reference) }
        return found
    }

    /// The documents `references` name, each once, in the order first named, and the
    /// references that name none.
    public func documents(_ references: [String]) throws -> (documents: [StoredDocument], notFound: [String]) {
        var documents: [StoredDocument] = []
        var seen: Set<Int64> = []
        var notFound: [String] = []
        for reference in references {
            let found = try self.documents(reference)
            if found.isEmpty { notFound.append(reference) }
            documents += found.filter { seen.insert($0.id).inserted }
        }
        return (documents, notFound)
    }

    /// The one document `reference` names; naming none or several is an error that says so.
    public func document(_ reference: String) throws -> StoredDocument {
        let found = try documents(reference)
        guard let document = found.first else {
            throw LecternError(.notFound, reference, Self.notFound(reference))
        }
        if found.count > 1 {
            throw LecternError(.invalidInput, reference, "matches \(found.count) documents: "
                               + found.prefix(5).map { "\($0.shortId) \($0.uri)" }.joined(separator: ", "))
        }
        return document
    }

    /// Why `reference` named nothing, for a failed event or an error.
    public static func notFound(_ reference: String) -> String {
        isGlob(reference) ? "no document in the library matches this pattern"
            : "no document with this id, path or URI (see `lectern sources`)"
    }
}
