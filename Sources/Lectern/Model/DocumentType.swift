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

    public static let markdown = DocumentType("markdown")
    public static let text = DocumentType("text")
    public static let pdf = DocumentType("pdf")
    public static let srt = DocumentType("srt")
    public static let vtt = DocumentType("vtt")
    /// JSON turns, `[hh:mm:ss]`-stamped text, an OCW timed transcript.
    public static let transcript = DocumentType("transcript")
    public static let html = DocumentType("html")
    public static let wikipedia = DocumentType("wikipedia")
    public static let openstax = DocumentType("openstax")
    public static let ocw = DocumentType("ocw")

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
