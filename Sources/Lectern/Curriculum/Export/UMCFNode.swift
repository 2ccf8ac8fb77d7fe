import Foundation

/// A content node: the curriculum root, a unit, or a topic. The app turns only `topic`,
/// `subtopic` and `lesson` nodes into things to teach, and reads transcripts only from them.
struct UMCFNode: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable {
        case curriculum, unit, module, topic, subtopic, lesson, section, segment
    }

    var id: UMCFIdentifier
    var title: String
    var type: Kind
    var orderIndex: Int?
    var description: String?
    var learningObjectives: [UMCFLearningObjective]?
    var prerequisites: [UMCFPrerequisite]?
    var timeEstimates: UMCFTimeEstimates?
    var transcript: UMCFTranscript?
    var assessments: [UMCFAssessment]?
    var glossaryTerms: [UMCFGlossaryTerm]?
    var children: [UMCFNode]?
    /// Lectern's provenance: which document, page and time each segment comes from.
    var extensions: [String: UMCFTopicProvenance]?
}

struct UMCFLearningObjective: Codable, Equatable, Sendable {
    var id: UMCFIdentifier
    var statement: String
    var bloomsLevel: String?
}

struct UMCFPrerequisite: Codable, Equatable, Sendable {
    /// The `id.value` of the topic node it builds on.
    var nodeId: String
    var description: String?
    var required: Bool?
}

/// Each estimate in ONE unit (`^PT\d+[HMS]$`): PT90M, never PT1H30M.
struct UMCFTimeEstimates: Codable, Equatable, Sendable {
    var overview: String?
    var introductory: String?
    var intermediate: String?
}

struct UMCFTranscript: Codable, Equatable, Sendable {
    var segments: [UMCFTranscriptSegment]
    var totalDuration: String?
}

/// What the tutor speaks. No `speakingNotes.pauseAfter` (a boolean in the schema, a string in
/// the app). A checkpoint the tutor asks after the segment is written in both spellings.
struct UMCFTranscriptSegment: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable {
        case lecture, explanation, example, checkpoint, transition, summary, introduction, conclusion
    }

    var id: String
    var type: Kind
    var content: String
    /// Key terms of the topic this segment uses.
    var glossaryRefs: [String]?
    var estimatedDuration: String?
    var checkpoint: UMCFCheckpoint?
}

/// A comprehension check the tutor asks after a segment: the schema requires `type` and
/// `prompt`, the app reads `question`, so the question is written in both; the expected answer
/// goes in `expectedResponsePatterns`. A card's question is a `comprehension_check`; where the
/// topic has no card for what was just said, the learner explains it back (`teachback`) and the
/// key terms spoken are the concepts the explanation should name.
struct UMCFCheckpoint: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable {
        case comprehensionCheck = "comprehension_check"
        case teachback
    }

    struct Criteria: Codable, Equatable, Sendable {
        var requiredConcepts: [String]
    }

    var type: Kind
    var prompt: String
    var question: String
    var expectedResponsePatterns: [String]?
    var evaluationCriteria: Criteria?
    var fallbackBehavior: String?
}

/// A `text_entry` question in both spellings: the schema's `prompt` (required) and the app's
/// `question`; the answer as the app's plain-string `correctAnswer` and the schema's
/// `correctResponse`. No `feedback`: the schema wants an object, the app a string.
struct UMCFAssessment: Codable, Equatable, Sendable {
    var id: UMCFIdentifier
    var type: String
    var prompt: String
    var question: String
    var correctAnswer: String
    var correctResponse: [String]
    var hint: String?
}

/// A topic node's `extensions` entry (under `UMCFExporter.provenanceNamespace`): every segment
/// id mapped to where its words are in the library's documents.
struct UMCFTopicProvenance: Codable, Equatable, Sendable {
    var segments: [String: UMCFSegmentSource]
}

struct UMCFSegmentSource: Codable, Equatable, Sendable {
    struct Document: Codable, Equatable, Sendable {
        var uri: String
        var title: String
    }

    var document: Document
    /// The passage's place in its document (with the URI, what the segment id is made of).
    var ordinal: Int
    var section: [String]?
    var pageStart: Int?
    var pageEnd: Int?
    var pageLabel: String?
    /// Seconds into the recording.
    var timeStart: Double?
    var timeEnd: Double?
    /// The later part of a long passage cut in parts (2, 3, …); nil for its first part.
    var part: Int?
    /// Passages joined to this one because they were too short to speak alone.
    var joinedOrdinals: [Int]?
}
