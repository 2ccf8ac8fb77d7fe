/// One setting's value as read from a TOML file, the environment or a flag.
public enum ConfigValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case strings([String])

    public var description: String {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .strings(let a): return a.joined(separator: ",")
        }
    }

    /// Reads an environment variable or flag value: numbers and booleans where they parse.
    static func parse(_ text: String) -> ConfigValue {
        if let i = Int(text) { return .int(i) }
        if let d = Double(text) { return .double(d) }
        switch text.lowercased() {
        case "true", "yes", "on": return .bool(true)
        case "false", "no", "off": return .bool(false)
        default: return .string(text)
        }
    }
}
