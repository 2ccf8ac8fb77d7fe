/// One search result, with where it came from.
public struct SearchHit: Codable, Sendable {
    public var rank: Int
    /// How well the passage matches, 0…1, on the same scale in every query (see `Relevance`):
    /// BM25's evidence in keyword mode, the cosine's in semantic mode, both weighted in hybrid.
    public var score: Double
    /// FTS5's BM25 (higher is better) where the keyword ranking found the passage.
    public var bm25: Double?
    /// The cosine similarity of the passage's vector and the query's, where the semantic
    /// ranking found the passage.
    public var cosine: Double?
    /// The score is under `Relevance.weakBelow`: little of the query was found in the passage.
    public var weak: Bool
    var passageId: Int64
    var documentId: String
    public var title: String
    var sectionPath: [String]
    /// `notes/cells.md § Mitochondria`, `paper.pdf p.12`, `lecture.srt @ 00:12:34`.
    public var location: String
    var uri: String
    var path: String?
    var type: String
    var kind: PassageKind
    var pageStart: Int?
    var pageEnd: Int?
    /// The first page's own name (`iii`) where the book numbers it otherwise than `pageStart`.
    var pageLabel: String? = nil
    var timeStart: Double?
    var timeEnd: Double?
    /// In a transcript: when the query's words are said (seconds), within the passage's span.
    var time: Double?
    /// In a transcript: who says the words at `time` (the passage's speakers, comma-separated,
    /// when that is not known).
    public var speaker: String?
    public var snippet: String
    /// Where query words stand in `snippet`: [start, length] in characters.
    public var highlights: [[Int]]
    var text: String
    var keywordRank: Int?
    var semanticRank: Int?
    /// Where the passage opens outside Lectern (see `PassageLink`); nil when nowhere.
    public var link: String? = nil

    /// `p123`: what `lectern show` takes to print this passage with its neighbours (never a
    /// document's short id, which is hex).
    public var passageReference: String { PassageReference.text(passageId) }
    /// The short id of the hit's document, as `lectern sources` lists it.
    public var documentShortId: String { documentId }
}

extension SearchHit: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    public func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}
