import Foundation

// The curriculum as every stage sees it: built from the library's documents (`curriculum
// build`), stored in the library, exported as UMCF, Markdown or JSON, and the ground that
// flashcards, `context` and the MCP server stand on. The store keeps these values in its own
// tables; nothing here knows SQL.

/// A course built from sources: units in the sources' own order, each holding topics.
struct Curriculum: Codable, Sendable, Equatable {
    /// The name the user gave (`lectern curriculum build NAME`), unique in a library.
    var name: String
    var title: String
    /// Stable across rebuilds and exports (UMCF `id.value`): derived from the name alone.
    var stableId: String
    var sources: [CurriculumSource]
    var units: [CurriculumUnit]
    /// The language model that wrote generated parts, when one did (e.g. "gemma3-270m").
    var modelName: String?
    var createdAt: Date
    var modifiedAt: Date
    /// The course's own description where its source gives one (an OCW course's), else nil.
    var summary: String? = nil

    /// Every topic, in reading order.
    var topics: [Topic] { units.flatMap(\.topics) }
}

/// One document a curriculum draws on, with what export needs for provenance and rights.
struct CurriculumSource: Codable, Sendable, Equatable {
    var documentId: Int64
    var uri: String
    var title: String
    var type: DocumentType
    /// The licence a pipeline declares for the source, else as the source states it (an
    /// OpenStax collection file's licence name), if any.
    var licence: String?
    var licenceURL: String?
    /// The document's content hash when the curriculum was built: a changed hash means the
    /// topics drawing on it are rebuilt.
    var contentHash: String
    /// Tags a pipeline gives the source; its cards carry them.
    var tags: [String] = []
}

/// A unit of a course: an OpenStax chapter, one document of a folder, an OCW course's part.
struct CurriculumUnit: Codable, Sendable, Equatable {
    /// Stable across rebuilds: derived from the curriculum's stable id and the unit's title path.
    var stableId: String
    var title: String
    var topics: [Topic]
}

/// What a learner studies in one sitting: an OpenStax module, a PDF outline entry, a Wikipedia
/// h2 section, a lecture, or a stretch of a transcript where the subject holds.
struct Topic: Codable, Sendable, Equatable {
    /// Stable across rebuilds while the topic's place and title hold (UMCF node id, card GUIDs).
    var stableId: String
    var title: String
    var summary: String
    var summaryOrigin: ContentOrigin
    var objectives: [LearningObjective]
    var keyTerms: [KeyTerm]
    /// Estimated study time in whole minutes, from the word count of its passages.
    var studyMinutes: Int
    /// Its passages in reading order, as the library holds them (the store keeps references,
    /// `topic_passages`); a merged topic holds passages of several documents.
    var passages: [Passage]
    /// Topics this one builds on: it uses a key term the other defines, or its author refers back to it.
    var prerequisites: [TopicLink]
    /// Who wrote the title: nil for the source's own heading; offline (key phrases) or the
    /// model for a stretch of a transcript found by content.
    var titleOrigin: ContentOrigin? = nil
}

struct LearningObjective: Codable, Sendable, Equatable {
    /// Stable across rebuilds: derived from the topic's stable id and the normalised statement.
    var stableId: String
    var statement: String
    var origin: ContentOrigin
    /// True for one the build made because the topic's unit lends it none (the subject its
    /// title names, its key phrases): made again by every build from the unit's other
    /// objectives, so a topic kept by a rebuild drops it first, and not counted as the unit's
    /// when another topic's is made. Nil otherwise (and in curricula built before it was recorded).
    var standIn: Bool? = nil
}

extension LearningObjective {
    /// An objective of the topic `topicId`, its id made from that and the statement's words.
    init(_ statement: String, origin: ContentOrigin, topicId: String, standIn: Bool = false) {
        self.init(stableId: String(ContentHash.sha256(topicId + "|objective|" + Self.key(statement)).prefix(16)), statement: statement, origin: origin,
                  standIn: standIn ? true : nil)
    }

    /// A statement's words, lower-cased: two statements with the same are one objective.
    static func key(_ statement: String) -> String {
        statement.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
    }
}

struct KeyTerm: Codable, Sendable, Equatable {
    var term: String
    var definition: String
    var origin: ContentOrigin
    /// The passage the definition is read from, when it is read from one.
    var passageId: Int64?
    var basis: KeyTermBasis = .defined

    init(term: String, definition: String, origin: ContentOrigin, passageId: Int64?, basis: KeyTermBasis = .defined) {
        self.term = term
        self.definition = definition
        self.origin = origin
        self.passageId = passageId
        self.basis = basis
    }

    /// Declared because both halves of Codable are written by hand (the encoding adds `ref`).
    enum CodingKeys: String, CodingKey { case term, definition, origin, passageId, basis }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        term = try container.decode(String.self, forKey: .term)
        definition = try container.decode(String.self, forKey: .definition)
        origin = try container.decode(ContentOrigin.self, forKey: .origin)
        passageId = try container.decodeIfPresent(Int64.self, forKey: .passageId)
        // Written before key terms had a basis: a definition read from the text.
        basis = try container.decodeIfPresent(KeyTermBasis.self, forKey: .basis) ?? .defined
    }
}

/// "This topic builds on that one": it uses `term`, which the other topic defines, or its
/// author points back to the other topic (`reason` `.reference`; `term` then holds the words
/// of the reference, "the chapter on logic and reasoning").
struct TopicLink: Codable, Sendable, Equatable {
    var topicStableId: String
    var term: String
    var reason: TopicLinkReason = .term

    init(topicStableId: String, term: String, reason: TopicLinkReason = .term) {
        self.topicStableId = topicStableId
        self.term = term
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey { case topicStableId, term, reason }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        topicStableId = try container.decode(String.self, forKey: .topicStableId)
        term = try container.decode(String.self, forKey: .term)
        // Written before links had a reason: every link was a term's.
        reason = try container.decodeIfPresent(TopicLinkReason.self, forKey: .reason) ?? .term
    }

    /// Why the link is there, as `curriculum show`, the exports and `context` say it.
    var because: String {
        switch reason {
        case .term: "\u{201C}\(term)\u{201D}"
        case .reference: "the text refers to it: \u{201C}\(term)\u{201D}"
        }
    }
}

/// What a "builds on" link rests on.
enum TopicLinkReason: String, Codable, Sendable, Equatable {
    /// The topic uses a term the other defines and teaches.
    case term
    /// The author points back to the other topic: a cross-reference of the source, or the text's
    /// "as Chapter 1 explained", "recall from the previous section".
    case reference
}

/// A question a topic's assessment asks (flashcards in the UMCF export: `text_entry`
/// assessments), keyed by the topic's stable id when handed to the exporter.
struct TopicAssessment: Codable, Sendable, Equatable {
    var stableId: String
    var question: String
    var answer: String
    var hint: String?
    /// The passage that holds the answer.
    var passageId: Int64?
}

// A curriculum's JSON (`curriculum show --json`, the stored record) names its passages as `p<N>` too.
extension KeyTerm: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}

extension TopicAssessment: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}
