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
