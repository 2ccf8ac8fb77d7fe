import Foundation

/// The kind of a typed block, after Unstructured's and Docling's element types.
public enum BlockKind: String, Codable, Sendable, CaseIterable {
    case title
    case heading
    case paragraph
    case listItem = "list_item"
    case caption
    case code
    case table
    case quote
    case equation
    /// Repeating page furniture: kept as metadata, never in passages.
    case pageHeader = "page_header"
    case pageFooter = "page_footer"
    /// An entry of a document's own table of contents: it repeats the headings, so it stays out of passages.
    case contentsEntry = "contents_entry"
    /// Words set inside a figure (an axis's numbers, a drawing's part names): out of passages; the caption stays.
    case figureLabel = "figure_label"
    /// One timed piece of a transcript (a merged caption sentence or paragraph).
    case cue
    case objective
    case glossary
    case exercise
    case keyTerm = "key_term"

    /// Blocks of these kinds never reach passage text: page furniture, and what only points at or
    /// decorates the text (a contents entry, a figure's labels).
    public var isFurniture: Bool { self == .pageHeader || self == .pageFooter || self == .contentsEntry || self == .figureLabel }
}

/// A moment inside a text: the character `offset` where words said at `seconds` begin. A
/// transcript sentence spanning several cues holds one per cue, so that a search hit can name
/// the cue its words are said in. Encoded as the pair `[offset, seconds]`, as stored.
public struct TimePoint: Sendable, Equatable, Codable {
    public var offset: Int
    public var seconds: Double

    public init(offset: Int, seconds: Double) {
        self.offset = offset
        self.seconds = seconds
    }

    public init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        offset = Int(try pair.decode(Double.self))
        seconds = try pair.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var pair = encoder.unkeyedContainer()
        try pair.encode(Double(offset))
        try pair.encode(seconds)
    }

    /// When the text at `offset` is said: the last point at or before it (the first point when
    /// none is); nil for an empty timeline.
    public static func time(in timeline: [TimePoint], atOffset offset: Int) -> Double? {
        guard var best = timeline.first?.seconds else { return nil }
        for point in timeline where point.offset <= offset { best = point.seconds }
        return best
    }

    /// The points of `timeline` within `from..<from+length`, relative to `from`, led by the
    /// point in force at `from`: the timeline of a piece cut out of the text.
    public static func slice(_ timeline: [TimePoint], from: Int, length: Int) -> [TimePoint] {
        guard !timeline.isEmpty else { return [] }
        var result: [TimePoint] = []
        if let before = timeline.last(where: { $0.offset <= from }) { result.append(TimePoint(offset: 0, seconds: before.seconds)) }
        for point in timeline where point.offset > from && point.offset < from + length {
            result.append(TimePoint(offset: point.offset - from, seconds: point.seconds))
        }
        return result
    }
}

/// One typed element of an extracted document, with its provenance.
///
/// Extractors produce blocks in reading order. `sectionPath` is the chain of headings above
/// the block (outermost first); `page` is 1-based; times are seconds from the start of a
/// recording; `offset` is the character offset of the block's text in the source text when
/// the source is text (Markdown, plain text), else nil.
public struct Block: Codable, Sendable, Equatable {
    public var kind: BlockKind
    public var text: String
    /// Heading level (1 = top) for headings; nesting depth for list items.
    public var level: Int?
    public var sectionPath: [String]
    public var page: Int?
    /// The page's own name where it differs from its number (`iii`, `A-3`, a slide's frame
    /// number): what a reader of the printed page calls it. `page` stays the physical page.
    public var pageLabel: String?
    public var start: Double?
    public var end: Double?
    public var speaker: String?
    public var offset: Int?
    /// For a timed block whose text spans several cues: where in `text` each cue's words begin
    /// (offsets relative to `text`). Empty when the block is one cue or untimed.
    public var timeline: [TimePoint]
    /// A transcript block that opens a paragraph (a new speaker, a long pause, a long run):
    /// passages start a new paragraph there.
    public var startsParagraph: Bool
    /// Reader-specific facts (for example a glossary term, a font name, a sound tag).
    public var attributes: [String: String]

    public init(
        kind: BlockKind, text: String, level: Int? = nil, sectionPath: [String] = [],
        page: Int? = nil, start: Double? = nil, end: Double? = nil, speaker: String? = nil,
        offset: Int? = nil, timeline: [TimePoint] = [], startsParagraph: Bool = false,
        attributes: [String: String] = [:], pageLabel: String? = nil
    ) {
        self.kind = kind
        self.text = text
        self.level = level
        self.sectionPath = sectionPath
        self.page = page
        self.pageLabel = pageLabel
        self.start = start
        self.end = end
        self.speaker = speaker
        self.offset = offset
        self.timeline = timeline
        self.startsParagraph = startsParagraph
        self.attributes = attributes
    }

    enum CodingKeys: String, CodingKey {
        case kind, text, level, sectionPath, page, pageLabel, start, end, speaker, offset, timeline, startsParagraph, attributes
    }

    // The transcript fields are left out of JSON when they say nothing (most blocks).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(BlockKind.self, forKey: .kind)
        text = try container.decode(String.self, forKey: .text)
        level = try container.decodeIfPresent(Int.self, forKey: .level)
        sectionPath = try container.decodeIfPresent([String].self, forKey: .sectionPath) ?? []
        page = try container.decodeIfPresent(Int.self, forKey: .page)
        pageLabel = try container.decodeIfPresent(String.self, forKey: .pageLabel)
        start = try container.decodeIfPresent(Double.self, forKey: .start)
        end = try container.decodeIfPresent(Double.self, forKey: .end)
        speaker = try container.decodeIfPresent(String.self, forKey: .speaker)
        offset = try container.decodeIfPresent(Int.self, forKey: .offset)
        timeline = try container.decodeIfPresent([TimePoint].self, forKey: .timeline) ?? []
        startsParagraph = try container.decodeIfPresent(Bool.self, forKey: .startsParagraph) ?? false
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(level, forKey: .level)
        try container.encode(sectionPath, forKey: .sectionPath)
        try container.encodeIfPresent(page, forKey: .page)
        try container.encodeIfPresent(pageLabel, forKey: .pageLabel)
        try container.encodeIfPresent(start, forKey: .start)
        try container.encodeIfPresent(end, forKey: .end)
        try container.encodeIfPresent(speaker, forKey: .speaker)
        try container.encodeIfPresent(offset, forKey: .offset)
        if !timeline.isEmpty { try container.encode(timeline, forKey: .timeline) }
        if startsParagraph { try container.encode(true, forKey: .startsParagraph) }
        try container.encode(attributes, forKey: .attributes)
    }
}
