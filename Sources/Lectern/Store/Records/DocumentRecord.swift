import Foundation

/// A `documents` row. `StoredDocument` is what the rest of Lectern sees of it (the skip key
/// as one value; `show --json` prints it as it always has).
struct DocumentRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var sourceId: Int64
    var uri: String
    var shortId: String
    var path: String?
    var type: DocumentType
    var extractor: String
    var extractorVersion: Int
    var title: String
    var contentHash: String
    var passageKey: String
    var embedderKey: String
    /// A JSON object of strings, kept as written (`StoredDocument.metadataDictionary` reads it).
    var metadata: String
    /// A JSON array of the reader's warnings, kept as written.
    var warnings: String
    var blockCount: Int
    var passageCount: Int
    var createdAt: String
    var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, sourceId = "source_id", uri, shortId = "short_id", path, type, extractor
        case extractorVersion = "extractor_version", title, contentHash = "content_hash", passageKey = "passage_key"
        case embedderKey = "embedder_key", metadata, warnings, blockCount = "block_count", passageCount = "passage_count"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A `blocks` row: one of the reader's typed blocks, as `Block` (`block`) reads it back.
struct BlockRecord: Codable, Sendable, Equatable {
    var documentId: Int64
    var ordinal: Int
    /// As written; a kind a later version added reads as a paragraph.
    var kind: String
    var text: String
    var level: Int?
    /// A JSON array.
    var sectionPath: [String]
    var page: Int?
    var timeStart: Double?
    var timeEnd: Double?
    var speaker: String?
    var charOffset: Int?
    /// A JSON object; nil when the block has none.
    var attributes: [String: String]?
    var pageLabel: String?

    enum CodingKeys: String, CodingKey {
        case documentId = "document_id", ordinal, kind, text, level, sectionPath = "section_path", page
        case timeStart = "time_start", timeEnd = "time_end", speaker, charOffset = "char_offset", attributes
        case pageLabel = "page_label"
    }

    var block: Block {
        Block(kind: BlockKind(rawValue: kind) ?? .paragraph, text: text, level: level, sectionPath: sectionPath, page: page,
              start: timeStart, end: timeEnd, speaker: speaker, offset: charOffset, attributes: attributes ?? [:],
              pageLabel: pageLabel)
    }
}

/// A `sources` row with its documents' totals, as `LibraryStore.sources()` selects it.
struct SourceTotalsRecord: Codable, Sendable, Equatable {
    var id: Int64
    var uri: String
    var kind: SourceKind
    var updatedAt: String
    var documents: Int
    var passages: Int
    /// The first of its documents' titles by name order; nil when it has none.
    var title: String?

    enum CodingKeys: String, CodingKey {
        case id, uri, kind, updatedAt = "updated_at", documents, passages, title
    }
}

/// A distinct (source, document type) pair of `documents`.
struct SourceTypeRecord: Codable, Sendable, Equatable {
    var sourceId: Int64
    var type: DocumentType

    enum CodingKeys: String, CodingKey { case sourceId = "source_id", type }
}

/// A `library_totals` row: one total `stats` prints, kept by triggers.
struct LibraryTotalRecord: Codable, Sendable, Equatable {
    var name: String
    var value: Int
}

/// How many documents of one type a library holds.
struct DocumentTypeCountRecord: Codable, Sendable, Equatable {
    var type: String
    var count: Int
}
