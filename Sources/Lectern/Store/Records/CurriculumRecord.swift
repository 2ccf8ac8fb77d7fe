import Foundation

// The rows a curriculum is stored as, one struct a table, named by their columns. They are
// plain `Codable` values: the SQLite store reads and writes them through GRDB (its
// conformances are in `LibraryStore+Records.swift`), and a second backend reads and writes the
// same values. The Curriculum code maps them to its own types (`Curriculum+Records.swift`).

/// A `curricula` row.
struct CurriculumRecord: Codable, Sendable, Equatable {
    /// Nil until stored.
    var id: Int64?
    var name: String
    var stableId: String
    var title: String
    var modelName: String?
    /// The options it was built with (a rebuild compares it).
    var buildKey: String
    /// ISO 8601 with zone.
    var createdAt: String
    var modifiedAt: String
    /// The course's own description; nil when its sources give none (and before v10).
    var summary: String?

    enum CodingKeys: String, CodingKey {
        case id, name, stableId = "stable_id", title, modelName = "model_name", buildKey = "build_key"
        case createdAt = "created_at", modifiedAt = "modified_at", summary
    }
}

/// A `curriculum_sources` row: one document a curriculum draws on.
struct CurriculumSourceRecord: Codable, Sendable, Equatable {
    var curriculumId: Int64
    var position: Int
    var documentId: Int64
    var uri: String
    var title: String
    var type: DocumentType
    var licence: String?
    var licenceURL: String?
    var contentHash: String
    /// A JSON array (libraries before v9 joined them with newlines; the v9 migration converts them).
    var tags: [String]

    enum CodingKeys: String, CodingKey {
        case curriculumId = "curriculum_id", position, documentId = "document_id", uri, title, type, licence
        case licenceURL = "licence_url", contentHash = "content_hash", tags
    }
}

/// A `curriculum_units` row.
struct CurriculumUnitRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var curriculumId: Int64
    var position: Int
    var stableId: String
    var title: String

    enum CodingKeys: String, CodingKey {
        case id, curriculumId = "curriculum_id", position, stableId = "stable_id", title
    }
}

/// A curriculum with every row it is stored as: what the store writes in one transaction and
/// reads back whole. Row ids and the foreign keys between the rows are the store's business:
/// `units[i].topics` are the unit's topics, positions follow the arrays' order.
struct CurriculumRecords: Sendable, Equatable {
    var curriculum: CurriculumRecord
    var sources: [CurriculumSourceRecord]
    var units: [Unit]

    struct Unit: Sendable, Equatable {
        var unit: CurriculumUnitRecord
        var topics: [TopicRecords]
    }
}
