import Foundation

/// What an extractor makes of one source: typed blocks in reading order plus metadata.
public struct ExtractedDocument: Codable, Sendable {
    /// A content type name such as `markdown`, `text`, `pdf`, `srt`, `wikipedia`.
    public var type: String
    public var title: String
    public var blocks: [Block]
    /// Free-form facts: author, page count, canonical URL, revision, language …
    public var metadata: [String: String]
    /// Problems that did not stop extraction (bad cues, pages without text, replaced bytes).
    /// A warning about one line of the source starts `line N: ` (see `lineOf(warning:)`).
    public var warnings: [String]

    /// Splits `line 42: reason` into (42, "reason"), so a front end can print `file:42: reason`.
    public static func lineOf(warning: String) -> (line: Int?, message: String) {
        guard warning.hasPrefix("line "), let colon = warning.firstIndex(of: ":"),
              let line = Int(warning[warning.index(warning.startIndex, offsetBy: 5)..<colon]) else { return (nil, warning) }
        return (line, String(warning[warning.index(after: colon)...].drop { $0 == " " }))
    }

    public init(
        type: String, title: String, blocks: [Block], metadata: [String: String] = [:],
        warnings: [String] = []
    ) {
        self.type = type
        self.title = title
        self.blocks = blocks
        self.metadata = metadata
        self.warnings = warnings
    }
}

/// Some sources hold several documents (an OCW course's pages, a book's chapters when a
/// reader chooses to split). Most readers return one.
public typealias ExtractedDocuments = [ExtractedDocument]
