import Foundation

/// A `topics` row. `objectives` and `keyTerms` are the text its keyword index (`topics_fts`)
/// reads, one item a line; the items themselves are rows of their own tables.
struct TopicRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var curriculumId: Int64
    var unitId: Int64
    var position: Int
    var stableId: String
    var title: String
    /// Nil for the source's own heading.
    var titleOrigin: ContentOrigin?
    var summary: String
    var summaryOrigin: ContentOrigin
    var studyMinutes: Int
    var objectives: String
    var keyTerms: String

    enum CodingKeys: String, CodingKey {
        case id, curriculumId = "curriculum_id", unitId = "unit_id", position, stableId = "stable_id", title
        case titleOrigin = "title_origin", summary, summaryOrigin = "summary_origin", studyMinutes = "study_minutes"
        case objectives, keyTerms = "key_terms"
    }
}

/// A row of one of a topic's lists (objectives, key terms, passages, links): the topic it
/// belongs to and its place in the list.
protocol TopicListRecord {
    var topicId: Int64 { get set }
    var position: Int { get set }
}

/// A `topic_objectives` row.
struct TopicObjectiveRecord: Codable, Sendable, Equatable, TopicListRecord {
    var topicId: Int64
    var position: Int
    var stableId: String
    var statement: String
    var origin: ContentOrigin
    /// `LearningObjective.standIn`; NULL for any other (and in curricula built before).
    var standIn: Bool?

    enum CodingKeys: String, CodingKey {
        case topicId = "topic_id", position, stableId = "stable_id", statement, origin, standIn = "stand_in"
    }
}

/// A `topic_key_terms` row.
struct TopicKeyTermRecord: Codable, Sendable, Equatable, TopicListRecord {
    var topicId: Int64
    var position: Int
    var term: String
    var definition: String
    var origin: ContentOrigin
    var passageId: Int64?
    /// Nil in curricula built before key terms had a basis (read as `defined`).
    var basis: KeyTermBasis?

    enum CodingKeys: String, CodingKey {
        case topicId = "topic_id", position, term, definition, origin, passageId = "passage_id", basis
    }
}

/// A `topic_passages` row: a reference to a passage of the library, in the topic's reading order.
struct TopicPassageRecord: Codable, Sendable, Equatable, TopicListRecord {
    var topicId: Int64
    var position: Int
    var passageId: Int64

    enum CodingKeys: String, CodingKey {
        case topicId = "topic_id", position, passageId = "passage_id"
    }
}

/// A `topic_links` row: the topic builds on `targetStableId`'s topic through `term`.
struct TopicLinkRecord: Codable, Sendable, Equatable, TopicListRecord {
    var topicId: Int64
    var position: Int
    var targetStableId: String
    var term: String
    /// `term` or `reference`; nil in curricula built before links had a reason (read as `term`).
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case topicId = "topic_id", position, targetStableId = "target_stable_id", term, reason
    }
}

/// A topic with its rows. On reading, `passages` holds each referenced passage that is still
/// in the library (one removed since the build is left out), in reading order.
struct TopicRecords: Sendable, Equatable {
    var topic: TopicRecord
    var objectives: [TopicObjectiveRecord]
    var keyTerms: [TopicKeyTermRecord]
    var passages: [TopicPassageRecord]
    var links: [TopicLinkRecord]
}
