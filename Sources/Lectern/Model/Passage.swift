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

    public init(
        ordinal: Int, text: String, kind: String, sectionPath: [String], pageStart: Int? = nil,
        pageEnd: Int? = nil, timeStart: Double? = nil, timeEnd: Double? = nil,
        speaker: String? = nil, charStart: Int? = nil, charEnd: Int? = nil, tokenCount: Int
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
    }
}
