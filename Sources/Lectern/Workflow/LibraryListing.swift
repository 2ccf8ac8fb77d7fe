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

/// One document as `lectern show` presents it: its record, metadata and warnings, its table of
/// contents (every heading, in reading order), the section paths its passages run through, its
/// passages and its summaries.
public struct DocumentView: Encodable, Sendable {
    public var document: StoredDocument
    public var metadata: [String: String]
    public var warnings: [String]
    public var outline: [OutlineEntry]
    public var sections: [[String]]
    public var passages: [Passage]
    public var summaries: [StoredSummary]

    /// The summaries were made from an earlier version of the document.
    public var summariesAreStale: Bool { summaries.first.map { $0.contentHash != document.contentHash } ?? false }
}

/// What the library holds, for the listing commands.
public enum LibraryListing {
    /// Every source with its documents.
    public static func sources(in store: LibraryStore) throws -> [SourceListing] {
        try sources(in: Library(store))
    }

    public static func sources(in library: Library) throws -> [SourceListing] {
        let store = library.backend
        let bySource = Dictionary(grouping: try store.allDocuments(), by: \.sourceId)
        return try store.sources().map { SourceListing(source: $0, documents: bySource[$0.id] ?? []) }
    }

    /// The one document `reference` (`DocumentReferences`' reading) names; naming none or
    /// several is an error that says so.
    public static func document(_ reference: String, in store: LibraryStore) throws -> DocumentView {
        try document(reference, in: Library(store))
    }

    public static func document(_ reference: String, in library: Library) throws -> DocumentView {
        let store = library.backend
        let document = try DocumentReferences(backend: store).document(reference)
        let passages = try store.passages(documentId: document.id)
        var sections: [[String]] = []
        for passage in passages where sections.last != passage.sectionPath { sections.append(passage.sectionPath) }
        return DocumentView(document: document, metadata: document.metadataDictionary, warnings: document.warningList,
                            outline: DocumentOutline.entries(try store.blocks(documentId: document.id)),
                            sections: sections, passages: passages, summaries: try store.summaries(documentId: document.id))
    }

    /// `p123` (a search hit's passage) → its row id; nil for anything else.
    public static func passageId(_ reference: String) -> Int64? {
        PassageReference(reference)?.id
    }

    /// The passage a hit named (`p123`) with `context` passages either side of it in its document.
    public static func passage(_ id: Int64, context: Int, in store: LibraryStore) throws -> PassageContext {
        try passage(id, context: context, in: Library(store))
    }

    public static func passage(_ id: Int64, context: Int, in library: Library) throws -> PassageContext {
        let store = library.backend
        let window = try store.passageWithNeighbours(id: id, context: max(0, context))
        guard let hit = window.first(where: { $0.id == id }) else {
            throw LecternError(.notFound, "p\(id)", "no passage with this id (a search hit's `p<N>`; the document may have been re-read since: search again)")
        }
        return PassageContext(passageId: id, documentShortId: hit.documentShortId ?? "", title: hit.documentTitle ?? "",
                              link: try PassageLink.link(for: hit, store: store),
                              passages: window.map { PassageContext.Entry($0, isHit: $0.id == id) })
    }
}

/// A passage `lectern show p<N>` opens, with its neighbours in reading order.
public struct PassageContext: Encodable, Sendable {
    public var passageId: Int64
    public var documentShortId: String
    public var title: String
    public var link: String?
    public var passages: [Entry]

    public struct Entry: Encodable, Sendable {
        public var id: Int64
        public var ordinal: Int
        /// The one the hit named; the others are its neighbours.
        public var isHit: Bool
        public var location: String
        public var page: Int?
        public var pageLabel: String?
        public var time: Double?
        public var sectionPath: [String]
        public var text: String

        init(_ passage: Passage, isHit: Bool) {
            id = passage.id
            ordinal = passage.ordinal
            self.isHit = isHit
            location = Location.describe(passage)
            page = passage.pageStart
            pageLabel = passage.pageLabel
            time = passage.timeStart
            sectionPath = passage.sectionPath
            text = passage.text
        }
    }
}

extension PassageContext: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    public func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}

extension PassageContext.Entry: PassageReferenced {
    var referencedPassage: Int64? { id }
    public func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}
