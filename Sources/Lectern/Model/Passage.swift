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

/// A chunk of a document's text sized for the embedder, with provenance: Lectern's one passage
/// type. The chunker makes it outside any library (`id` and `documentId` 0, no document facts);
/// the store gives it both ids and reads it back with its document's facts, which is how
/// search, `show`, a curriculum's topics and the cards drawn from them all see it. What points
/// at a passage (a card, a key term, a hit) holds its id, `PassageReference` in print.
public struct Passage: Sendable, Equatable {
    /// Its row in the library; 0 until the store keeps it.
    public var id: Int64
    /// Its document's row; 0 until the store keeps it.
    var documentId: Int64
    public var ordinal: Int
    public var text: String
    var kind: PassageKind
    public var sectionPath: [String]
    var pageStart: Int?
    var pageEnd: Int?
    /// The first page's own name where it differs from its number (see `Block.pageLabel`).
    var pageLabel: String?
    public var timeStart: Double?
    var timeEnd: Double?
    var speaker: String?
    var charStart: Int?
    var charEnd: Int?
    public var tokenCount: Int
    /// For transcripts: where in `text` each timed sentence (or cue) starts, so that a search
    /// hit can name the moment its words are said, not just the passage start.
    var timeline: [TimePoint]?
    // Its document, as a reader of the passage names it; nil until the store keeps it (and in
    // a curriculum's JSON of version 1, whose passages had none).
    var documentTitle: String?
    var documentURI: String?
    var documentPath: String?
    var documentType: DocumentType?
    var documentShortId: String?

    /// A passage as the chunker makes it, not yet in a library.
    init(
        ordinal: Int, text: String, kind: PassageKind, sectionPath: [String], pageStart: Int? = nil,
        pageEnd: Int? = nil, timeStart: Double? = nil, timeEnd: Double? = nil,
        speaker: String? = nil, charStart: Int? = nil, charEnd: Int? = nil, tokenCount: Int,
        timeline: [TimePoint]? = nil, pageLabel: String? = nil
    ) {
        self.init(id: 0, documentId: 0, ordinal: ordinal, text: text, kind: kind, sectionPath: sectionPath,
                  pageStart: pageStart, pageEnd: pageEnd, pageLabel: pageLabel, timeStart: timeStart, timeEnd: timeEnd,
                  speaker: speaker, charStart: charStart, charEnd: charEnd, tokenCount: tokenCount, timeline: timeline)
    }

    /// A passage of a library, by its ids.
    init(
        id: Int64, documentId: Int64, ordinal: Int, text: String, kind: PassageKind, sectionPath: [String],
        pageStart: Int? = nil, pageEnd: Int? = nil, pageLabel: String? = nil, timeStart: Double? = nil,
        timeEnd: Double? = nil, speaker: String? = nil, charStart: Int? = nil, charEnd: Int? = nil, tokenCount: Int,
        timeline: [TimePoint]? = nil, documentTitle: String? = nil, documentURI: String? = nil,
        documentPath: String? = nil, documentType: DocumentType? = nil, documentShortId: String? = nil
    ) {
        self.id = id
        self.documentId = documentId
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
        self.documentTitle = documentTitle
        self.documentURI = documentURI
        self.documentPath = documentPath
        self.documentType = documentType
        self.documentShortId = documentShortId
    }

    /// When the text at `offset` is said: the start of the timed sentence holding it.
    func time(atOffset offset: Int) -> Double? {
        timeline.flatMap { TimePoint.time(in: $0, atOffset: offset) } ?? timeStart
    }

    /// Where its document is, as a person reads it: the file's path, else the document's URI.
    var documentName: String {
        documentPath.map(DisplayPath.of) ?? documentURI ?? ""
    }
}

// As JSON (`show --json`, a curriculum's topics): the stored properties under their own names,
// a nil left out, and `ref`. A curriculum's JSON of version 1 named a topic's passage's id
// `passageId`; it still reads.
extension Passage: Codable, PassageReferenced {
    var referencedPassage: Int64? { id == 0 ? nil : id }

    public func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }

    enum CodingKeys: String, CodingKey {
        case id, documentId, ordinal, text, kind, sectionPath, pageStart, pageEnd, pageLabel, timeStart, timeEnd, speaker
        case charStart, charEnd, tokenCount, timeline, documentTitle, documentURI, documentPath, documentType, documentShortId
        /// Version 1 of the curriculum JSON's name for `id`.
        case passageId
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id) ?? c.decode(Int64.self, forKey: .passageId)
        documentId = try c.decode(Int64.self, forKey: .documentId)
        ordinal = try c.decode(Int.self, forKey: .ordinal)
        text = try c.decode(String.self, forKey: .text)
        kind = try c.decode(PassageKind.self, forKey: .kind)
        sectionPath = try c.decode([String].self, forKey: .sectionPath)
        pageStart = try c.decodeIfPresent(Int.self, forKey: .pageStart)
        pageEnd = try c.decodeIfPresent(Int.self, forKey: .pageEnd)
        pageLabel = try c.decodeIfPresent(String.self, forKey: .pageLabel)
        timeStart = try c.decodeIfPresent(Double.self, forKey: .timeStart)
        timeEnd = try c.decodeIfPresent(Double.self, forKey: .timeEnd)
        speaker = try c.decodeIfPresent(String.self, forKey: .speaker)
        charStart = try c.decodeIfPresent(Int.self, forKey: .charStart)
        charEnd = try c.decodeIfPresent(Int.self, forKey: .charEnd)
        tokenCount = try c.decode(Int.self, forKey: .tokenCount)
        timeline = try c.decodeIfPresent([TimePoint].self, forKey: .timeline)
        documentTitle = try c.decodeIfPresent(String.self, forKey: .documentTitle)
        documentURI = try c.decodeIfPresent(String.self, forKey: .documentURI)
        documentPath = try c.decodeIfPresent(String.self, forKey: .documentPath)
        documentType = try c.decodeIfPresent(DocumentType.self, forKey: .documentType)
        documentShortId = try c.decodeIfPresent(String.self, forKey: .documentShortId)
    }
}
