import Foundation

/// A `passages` row joined with the facts of its document a reader of the passage needs
/// (`Passage.selection` selects it; a `Passage` with its document's facts is what the rest of Lectern sees).
struct PassageRecord: Codable, Sendable, Equatable {
    var id: Int64
    var documentId: Int64
    var ordinal: Int
    var text: String
    /// As written; a kind a later version added reads as prose.
    var kind: String
    /// A JSON array.
    var sectionPath: [String]
    var pageStart: Int?
    var pageEnd: Int?
    var pageLabel: String?
    var timeStart: Double?
    var timeEnd: Double?
    var speaker: String?
    var charStart: Int?
    var charEnd: Int?
    var tokenCount: Int
    /// A JSON array; nil for untimed passages.
    var timeline: [TimePoint]?
    var documentTitle: String
    var documentURI: String
    var documentPath: String?
    var documentType: DocumentType
    var documentShortId: String

    enum CodingKeys: String, CodingKey {
        case id, documentId = "document_id", ordinal, text, kind, sectionPath = "section_path", pageStart = "page_start"
        case pageEnd = "page_end", pageLabel = "page_label", timeStart = "time_start", timeEnd = "time_end", speaker
        case charStart = "char_start", charEnd = "char_end", tokenCount = "token_count", timeline
        case documentTitle = "doc_title", documentURI = "doc_uri", documentPath = "doc_path", documentType = "doc_type"
        case documentShortId = "doc_short_id"
    }
}

/// A passage's text with what its contextual header is made of (its document's title and its
/// section path): what an embedder is given for it.
struct PassageTextRecord: Codable, Sendable, Equatable {
    var id: Int64
    var text: String
    /// A JSON array.
    var sectionPath: [String]
    var title: String

    enum CodingKeys: String, CodingKey { case id, text, sectionPath = "section_path", title }
}
