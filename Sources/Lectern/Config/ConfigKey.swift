import Foundation

/// One setting Lectern understands: its dotted name, what it holds, its default, the
/// `LECTERN_*` variable that sets it, and a line of help. `ConfigKey.all` is the one table of
/// them: parsing, validation, the environment mapping, unknown-key warnings and the README's
/// reference all read it, so adding a setting is adding a row.
public struct ConfigKey: Sendable {
    /// As written in TOML, dotted: `chunk.max_tokens` is `max_tokens` under `[chunk]`.
    public let name: String
    public let type: ConfigType
    /// The default as a TOML value would spell it; nil when there is none, or it depends on
    /// something else (the help says what).
    public let defaultValue: String?
    /// The `LECTERN_*` variable that sets it.
    public let environmentVariable: String
    public let help: String
    /// Puts the checked value into the configuration.
    let apply: @Sendable (inout Configuration, ConfigAssignment) throws -> Void

    init(_ name: String, _ type: ConfigType, default defaultValue: String? = nil, environment: String? = nil, help: String,
         apply: @escaping @Sendable (inout Configuration, ConfigAssignment) throws -> Void) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.environmentVariable = environment ?? Self.variable(for: name)
        self.help = help
        self.apply = apply
    }

    /// The TOML table the key lives in (`chunk`), "" for a top-level key.
    public var section: String {
        guard let dot = name.firstIndex(of: ".") else { return "" }
        return String(name[..<dot])
    }

    /// `chunk.max_tokens` → `LECTERN_CHUNK_MAX_TOKENS`.
    static func variable(for name: String) -> String {
        "LECTERN_" + name.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    /// Whether `key` is this setting: its name, or for a table of entries (`llm.prices`) any
    /// key inside it (`llm.prices."gpt-4o-mini".input`).
    func matches(_ key: String) -> Bool {
        key == name || (type.isTable && key.hasPrefix(name + "."))
    }

    /// Checks `value` against the type and applies it; errors name `layer` and the key.
    func set(_ configuration: inout Configuration, key: String, value: ConfigValue, layer: ConfigLayer) throws {
        let checked = try type.check(value, key: key, layer: layer.name, baseDirectory: layer.baseDirectory)
        try apply(&configuration, ConfigAssignment(key: key, value: checked, layer: layer.name))
    }

    /// The row `key` belongs to, nil for a key no row knows.
    public static func named(_ key: String) -> ConfigKey? {
        if let row = byName[key] { return row }
        return all.first { $0.type.isTable && $0.matches(key) }
    }

    static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The known key nearest to an unknown one (by edit distance), when one is near enough to
    /// be the likely meaning: `chunk.max_token` → `chunk.max_tokens`.
    public static func nearest(to key: String) -> String? {
        let scored = all.map { ($0.name, EditDistance.between(key, $0.name)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, key.count / 3) ? best.0 : nil
    }
}

/// A value that passed its key's type check, on its way into the configuration.
struct ConfigAssignment {
    /// The key as written (a table entry's full key: `llm.prices."m".input`).
    let key: String
    /// Normalised by the type: `.int` for whole numbers, `.double` for numbers, `.string` else.
    let value: ConfigValue
    /// The layer that set it, for error messages.
    let layer: String

    var text: String { value.description }
    /// Nil for an empty string: the key is unset again (`llm.base_url = ""`).
    var optionalText: String? { text.isEmpty ? nil : text }
    var int: Int {
        switch value {
        case .int(let i): return i
        case .double(let d): return Int(d)
        default: return 0
        }
    }
    var number: Double {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return 0
        }
    }
}

/// What a setting holds: decides how a value is checked, how an error shows it, and how a
/// `LECTERN_*` variable's text is read.
public enum ConfigType: Sendable, Equatable {
    case text
    /// A file or folder: `~` expanded, relative to the file that sets it.
    case path
    /// An http or https URL ("" for none); an error shows it with its credentials replaced.
    case url
    /// A URL holding a placeholder the caller fills in (`{repository}`).
    case urlTemplate(placeholder: String)
    /// The NAME of an environment variable (`OPENAI_API_KEY`). A value that is not a name is
    /// most likely the secret itself, so an error never repeats it.
    case variableName
    case wholeNumber(atLeast: Int, atMost: Int? = nil)
    case number(atLeast: Double)
    case choice([String])
    /// `MODEL=INPUT/OUTPUT,…` (US dollars per million tokens), or one TOML table per model.
    case prices

    /// Keys inside it are entries of one setting (`[llm.prices."MODEL"]`), not keys of their own.
    var isTable: Bool { self == .prices }

    /// Text-like types take a `LECTERN_*` variable's value as it is; numbers are parsed.
    var readsEnvironmentAsText: Bool {
        switch self {
        case .wholeNumber, .number: return false
        default: return true
        }
    }

    /// How the README names it.
    public var summary: String {
        switch self {
        case .text: return "text"
        case .path: return "path"
        case .url: return "URL"
        case .urlTemplate(let placeholder): return "URL with \(placeholder)"
        case .variableName: return "variable name"
        case .wholeNumber(let low, let high?): return "whole number \(low)–\(high)"
        case .wholeNumber(let low, nil): return "whole number ≥ \(low)"
        case .number(let low): return "number ≥ \(Self.format(low))"
        case .choice(let names): return "one of " + names.joined(separator: ", ")
        case .prices: return "prices"
        }
    }

    /// `OPENAI_API_KEY` is a variable's name; `sk-proj-…` is not (it is a key).
    static func isVariableName(_ text: String) -> Bool {
        text.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }

    /// `value` checked and normalised; an error is one line naming the layer and the key.
    func check(_ value: ConfigValue, key: String, layer: String, baseDirectory: String?) throws -> ConfigValue {
        func fail(_ reason: String) -> LecternError { LecternError(.configuration, layer, "\(key) \(reason)") }
        switch self {
        case .text, .prices:
            return .string(value.description)
        case .path:
            return .string(Configuration.resolvePath(value.description, base: baseDirectory))
        case .url, .urlTemplate:
            let url = value.description
            let lower = url.lowercased()
            guard url.isEmpty || lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw fail("must be an http or https URL, not '\(Redaction.url(url))'")
            }
            if case .urlTemplate(let placeholder) = self, !url.contains(placeholder) {
                throw fail("must contain \(placeholder)")
            }
            return .string(url)
        case .variableName:
            let name = value.description
            guard name.isEmpty || Self.isVariableName(name) else {
                // Someone pasted the key itself: say so without repeating it.
                throw fail("must be the NAME of an environment variable (like OPENAI_API_KEY), not a key")
            }
            return .string(name)
        case .wholeNumber(let low, let high):
            let n: Int
            switch value {
            case .int(let i): n = i
            case .double(let d) where d == d.rounded() && abs(d) < 1e15: n = Int(d)
            default: throw fail("must be a whole number, not '\(value)'")
            }
            guard n >= low else { throw fail(low == 1 ? "must be greater than 0" : "must be at least \(low)") }
            if let high, n > high { throw fail("must be at most \(high)") }
            return .int(n)
        case .number(let low):
            let d: Double
            switch value {
            case .int(let i): d = Double(i)
            case .double(let x): d = x
            default: throw fail("must be a number, not '\(value)'")
            }
            guard d >= low else { throw fail("must be at least \(Self.format(low))") }
            return .double(d)
        case .choice(let names):
            let name = value.description.lowercased()
            guard name.isEmpty || names.contains(name) else {
                throw LecternError(.configuration, layer, "\(key) '\(value)' is not one of \(names.joined(separator: ", "))")
            }
            return .string(name)
        }
    }
}

/// A key no row of `ConfigKey.all` knows, in a file where such keys are warned about rather
/// than refused: most likely a typing mistake, so it names the nearest known key.
public struct ConfigWarning: Sendable, Equatable, CustomStringConvertible {
    /// The file (or layer) that holds the key.
    public var file: String
    public var key: String
    public var suggestion: String?

    public init(file: String, key: String) {
        self.file = file
        self.key = key
        self.suggestion = ConfigKey.nearest(to: key)
    }

    /// `unknown key chunk.max_token (did you mean chunk.max_tokens?)`
    public var message: String { "unknown key \(key)" + (suggestion.map { " (did you mean \($0)?)" } ?? "") }
    public var description: String { "\(file): \(message)" }
}

/// Levenshtein distance over characters: how many insertions, deletions and substitutions
/// turn one key into another.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
