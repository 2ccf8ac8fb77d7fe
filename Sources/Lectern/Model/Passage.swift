import Foundation

/// What a passage holds, from the kinds of its blocks: prose passages are `text` (or `list`,
/// `caption` when all their blocks are), the others keep their blocks' kind of content.
enum PassageKind: String, Codable, Sendable, CaseIterable {
    case text
    case list
    case caption
    case code
    case table
    case transcript
    case objective
    case glossary
    case exercise
}

/// A chunk of a document's text sized for the embedder, with provenance.
struct Passage: Codable, Sendable, Equatable {
    var ordinal: Int
    var text: String
    var kind: PassageKind
    var sectionPath: [String]
    var pageStart: Int?
    var pageEnd: Int?
    /// The first page's own name where it differs from its number (see `Block.pageLabel`).
    var pageLabel: String?
    var timeStart: Double?
    var timeEnd: Double?
    var speaker: String?
    var charStart: Int?
    var charEnd: Int?
    var tokenCount: Int
    /// For transcripts: where in `text` each timed sentence (or cue) starts, so that a search
    /// hit can name the moment its words are said, not just the passage start.
    var timeline: [TimePoint]?

    init(
        ordinal: Int, text: String, kind: PassageKind, sectionPath: [String], pageStart: Int? = nil,
        pageEnd: Int? = nil, timeStart: Double? = nil, timeEnd: Double? = nil,
        speaker: String? = nil, charStart: Int? = nil, charEnd: Int? = nil, tokenCount: Int,
        timeline: [TimePoint]? = nil, pageLabel: String? = nil
    ) {
        self.ordinal = ordinal
        self.text = text
        self.kind = kind
        self.sectionPath = sectionPath
        self.pageStart = pageStart
        self.pageEnd = pageEnd
        self.pageLabel = pageLabel
        self.timeStart = timeStart
        self.timeEnd = timeEnd
        self.speaker = speaker
        self.charStart = charStart
        self.charEnd = charEnd
        self.tokenCount = tokenCount
        self.timeline = timeline
    }

    /// When the text at `offset` is said: the start of the timed sentence holding it.
    func time(atOffset offset: Int) -> Double? {
        timeline.flatMap { TimePoint.time(in: $0, atOffset: offset) } ?? timeStart
    }
}
