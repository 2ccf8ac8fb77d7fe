/// One search result, with where it came from.
public struct SearchHit: Codable, Sendable {
    public var rank: Int
    public var score: Double
    public var passageId: Int64
    public var documentId: String
    public var title: String
    public var sectionPath: [String]
    /// `notes/cells.md § Mitochondria`, `paper.pdf p.12`, `lecture.srt @ 00:12:34`.
    public var location: String
    public var uri: String
    public var path: String?
    public var type: String
    public var kind: String
    public var pageStart: Int?
    public var pageEnd: Int?
    public var timeStart: Double?
    public var timeEnd: Double?
    /// In a transcript: when the query's words are said (seconds), within the passage's span.
    public var time: Double?
    /// In a transcript: who says the words at `time` (the passage's speakers, comma-separated,
    /// when that is not known).
    public var speaker: String?
    public var snippet: String
    /// Where query words stand in `snippet`: [start, length] in characters.
    public var highlights: [[Int]]
    public var text: String
    public var keywordRank: Int?
    public var semanticRank: Int?
}
