import Foundation

/// What an extractor makes of one source: typed blocks in reading order plus metadata.
public struct ExtractedDocument: Codable, Sendable {
    /// A content type name such as `markdown`, `text`, `pdf`, `srt`, `wikipedia`.
    public var type: String
    public var title: String
    public var blocks: [Block]
    /// Free-form facts: author, page count, canonical URL, revision, language …
    var metadata: [String: String]
    /// Problems that did not stop extraction (bad cues, pages without text, replaced bytes).
    var warnings: [ExtractionWarning]

    init(
        type: String, title: String, blocks: [Block], metadata: [String: String] = [:],
        warnings: [ExtractionWarning] = []
    ) {
        self.type = type
        self.title = title
        self.blocks = blocks
        self.metadata = metadata
        self.warnings = warnings
    }
}
