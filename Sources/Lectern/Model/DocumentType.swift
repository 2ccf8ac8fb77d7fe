/// What kind of document a reader made, as stored and as `--type` filters it. An open set: the
/// built-in readers' types are named here, and a reader added at run time brings its own.
public struct DocumentType: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil only for an empty name.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
    }

    private init(_ name: String) { rawValue = name }

    static let markdown = DocumentType("markdown")
    static let text = DocumentType("text")
    static let pdf = DocumentType("pdf")
    static let srt = DocumentType("srt")
    static let vtt = DocumentType("vtt")
    /// JSON turns, `[hh:mm:ss]`-stamped text, an OCW timed transcript.
    static let transcript = DocumentType("transcript")
    static let html = DocumentType("html")
    static let wikipedia = DocumentType("wikipedia")
    static let openstax = DocumentType("openstax")
    static let ocw = DocumentType("ocw")

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let type = DocumentType(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty document type"))
        }
        self = type
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
