/// Whether a recorded problem failed its input or only warned about it.
public enum FailureSeverity: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case warning
    case error

    public var description: String { rawValue }
}
