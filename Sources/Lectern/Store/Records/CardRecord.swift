import Foundation

/// A `cards` row: one note, kept by curriculum NAME (a rebuilt curriculum gets new row ids; its
/// cards, their GUIDs and modification times outlive them). The Cards code maps it to a
/// `Flashcard` (`Flashcard+Records.swift`).
struct CardRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var curriculum: String
    var guid: String
    var curriculumStableId: String
    var topicStableId: String
    var noteType: CardNoteType
    var origin: CardOrigin
    var front: String
    var back: String
    /// Kept beside `source` as plain values, for filters that do not read the JSON.
    var passageId: Int64
    var documentId: Int64
    var pageStart: Int?
    var pageLabel: String?
    var timeStart: Double?
    /// JSON.
    var source: CardSource
    /// A JSON array.
    var tags: [String]
    var grounding: Double
    /// Generation order within the curriculum.
    var ordinal: Int
    var runId: Int64?
    /// Seconds since 1970.
    var modifiedAt: Double
    /// JSON; nil for cards generated before the checks.
    var quality: CardQuality?

    enum CodingKeys: String, CodingKey {
        case id, curriculum, guid, curriculumStableId = "curriculum_stable_id", topicStableId = "topic_stable_id"
        case noteType = "note_type", origin, front, back, passageId = "passage_id", documentId = "document_id"
        case pageStart = "page_start", pageLabel = "page_label", timeStart = "time_start", source, tags, grounding
        case ordinal, runId = "run_id", modifiedAt = "modified_at", quality
    }
}

/// A `card_reports` row: what one generate run of a curriculum did (a JSON document the Cards
/// code writes and reads; the store keeps it whole).
struct CardReportRecord: Codable, Sendable, Equatable {
    var runId: Int64
    var curriculum: String
    var report: String
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case runId = "run_id", curriculum, report, createdAt = "created_at"
    }
}
