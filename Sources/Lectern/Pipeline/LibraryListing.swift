import Foundation

/// One source in `lectern sources`: its summary, the short ids `lectern show` takes for its
/// documents, and the file or folder it was read from.
public struct SourceListing: Encodable, Sendable {
    public var source: SourceSummary
    public var documents: [StoredDocument]

    enum CodingKeys: String, CodingKey { case id, uri, kind, documents, passages, types, title, updatedAt, documentIds, path }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source.id, forKey: .id)
        try container.encode(source.uri, forKey: .uri)
        try container.encode(source.kind, forKey: .kind)
        try container.encode(source.documents, forKey: .documents)
        try container.encode(source.passages, forKey: .passages)
        // "markdown,pdf", as listings always showed it.
        try container.encode(source.types.map(\.rawValue).joined(separator: ","), forKey: .types)
        try container.encodeIfPresent(source.title, forKey: .title)
        try container.encode(source.updatedAt, forKey: .updatedAt)
        try container.encode(documents.map(\.shortId), forKey: .documentIds)
        try container.encodeIfPresent(documents.first?.path, forKey: .path)
    }
}

/// One document as `lectern show` presents it: its record, metadata and warnings, the section
/// paths its passages run through (in reading order), its passages and its summaries.
public struct DocumentView: Encodable, Sendable {
    public var document: StoredDocument
    public var metadata: [String: String]
    public var warnings: [String]
    public var sections: [[String]]
    public var passages: [StoredPassage]
    public var summaries: [StoredSummary]

    /// The summaries were made from an earlier version of the document.
    public var summariesAreStale: Bool { summaries.first.map { $0.contentHash != document.contentHash } ?? false }
}

/// What the library holds, for the listing commands.
public enum LibraryListing {
    /// Every source with its documents.
    public static func sources(in store: LibraryStore) throws -> [SourceListing] {
        let bySource = Dictionary(grouping: try store.allDocuments(), by: \.sourceId)
        return try store.sources().map { SourceListing(source: $0, documents: bySource[$0.id] ?? []) }
    }

    /// The one document `reference` (a short id or its first 4+ characters, a path, a URI)
    /// names; naming none or several is an error that says so.
    public static func document(_ reference: String, in store: LibraryStore) throws -> DocumentView {
        let found = try store.documents(matching: reference, absolutePath: Configuration.resolvePath(reference, base: nil))
        guard let document = found.first else {
            throw LecternError(.notFound, reference, "no document with this id, path or URI (see `lectern sources`)")
        }
        if found.count > 1 {
            throw LecternError(.invalidInput, reference, "matches \(found.count) documents: "
                               + found.prefix(5).map { "\($0.shortId) \($0.uri)" }.joined(separator: ", "))
        }
        let passages = try store.passages(documentId: document.id)
        var sections: [[String]] = []
        for passage in passages where sections.last != passage.sectionPath { sections.append(passage.sectionPath) }
        return DocumentView(document: document, metadata: document.metadataDictionary, warnings: document.warningList,
                            sections: sections, passages: passages, summaries: try store.summaries(documentId: document.id))
    }
}
