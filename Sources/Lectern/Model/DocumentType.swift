/// What kind of document a reader made, as stored and as `--type` filters it.
public enum DocumentType: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case markdown
    case text
    case pdf
    case srt
    case vtt
    /// JSON turns, `[hh:mm:ss]`-stamped text, an OCW timed transcript.
    case transcript
    case html
    case wikipedia
    case openstax
    case ocw

    public var description: String { rawValue }
}
