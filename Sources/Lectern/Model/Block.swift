import Foundation

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
    var sectionPath: [String]
    public var page: Int?
    /// The page's own name where it differs from its number (`iii`, `A-3`, a slide's frame
    /// number): what a reader of the printed page calls it. `page` stays the physical page.
    var pageLabel: String?
    public var start: Double?
    var end: Double?
    public var speaker: String?
    var offset: Int?
    /// For a timed block whose text spans several cues: where in `text` each cue's words begin
    /// (offsets relative to `text`). Empty when the block is one cue or untimed.
    var timeline: [TimePoint]
    /// A transcript block that opens a paragraph (a new speaker, a long pause, a long run):
    /// passages start a new paragraph there.
    var startsParagraph: Bool
    /// Reader-specific facts (for example a glossary term, a font name, a sound tag).
    var attributes: [String: String]

    init(
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
