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
    /// One timed piece of a transcript (a merged caption sentence or paragraph).
    case cue
    case objective
    case glossary
    case exercise
    case keyTerm = "key_term"

    /// Blocks of these kinds never reach passage text.
    public var isFurniture: Bool { self == .pageHeader || self == .pageFooter }
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
    public var start: Double?
    public var end: Double?
    public var speaker: String?
    public var offset: Int?
    /// Reader-specific facts (for example a glossary term, a font name, a sound tag).
    public var attributes: [String: String]

    public init(
        kind: BlockKind, text: String, level: Int? = nil, sectionPath: [String] = [],
        page: Int? = nil, start: Double? = nil, end: Double? = nil, speaker: String? = nil,
        offset: Int? = nil, attributes: [String: String] = [:]
    ) {
        self.kind = kind
        self.text = text
        self.level = level
        self.sectionPath = sectionPath
        self.page = page
        self.start = start
        self.end = end
        self.speaker = speaker
        self.offset = offset
        self.attributes = attributes
    }
}
