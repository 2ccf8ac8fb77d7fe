import Foundation

/// A chunk of a document's text sized for the embedder, with provenance.
public struct Passage: Codable, Sendable, Equatable {
    public var ordinal: Int
    public var text: String
    /// `text`, `list`, `code`, `table`, `caption`, `transcript`, `objective`, `glossary`, `exercise` …
    public var kind: String
    public var sectionPath: [String]
    public var pageStart: Int?
    public var pageEnd: Int?
    public var timeStart: Double?
    public var timeEnd: Double?
    public var speaker: String?
    public var charStart: Int?
    public var charEnd: Int?
    public var tokenCount: Int
    /// For transcripts: `[character offset in text, seconds]` where each timed sentence starts,
    /// so that a search hit can name the moment its words are said, not just the passage start.
    public var timeline: [[Double]]?

    public init(
        ordinal: Int, text: String, kind: String, sectionPath: [String], pageStart: Int? = nil,
        pageEnd: Int? = nil, timeStart: Double? = nil, timeEnd: Double? = nil,
        speaker: String? = nil, charStart: Int? = nil, charEnd: Int? = nil, tokenCount: Int,
        timeline: [[Double]]? = nil
    ) {
        self.ordinal = ordinal
        self.text = text
        self.kind = kind
        self.sectionPath = sectionPath
        self.pageStart = pageStart
        self.pageEnd = pageEnd
        self.timeStart = timeStart
        self.timeEnd = timeEnd
        self.speaker = speaker
        self.charStart = charStart
        self.charEnd = charEnd
        self.tokenCount = tokenCount
        self.timeline = timeline
    }

    /// When the text at `offset` is said: the start of the timed sentence holding it.
    public func time(atOffset offset: Int) -> Double? {
        Passage.time(in: timeline, atOffset: offset) ?? timeStart
    }

    static func time(in timeline: [[Double]]?, atOffset offset: Int) -> Double? {
        guard let timeline, !timeline.isEmpty else { return nil }
        var best = timeline[0][1]
        for point in timeline where point.count == 2 && Int(point[0]) <= offset { best = point[1] }
        return best
    }
}
