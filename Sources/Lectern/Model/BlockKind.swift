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
    var isFurniture: Bool { self == .pageHeader || self == .pageFooter || self == .contentsEntry || self == .figureLabel }
}
