/// Where a source's bytes come from.
enum SourceKind: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case file
    /// A folder read as one document (an OCW course or an OpenStax book saved to disk).
    case folder
    /// A URL or a web spec (`wikipedia:`, `openstax:`, `ocw:`).
    case url

    var description: String { rawValue }
}
