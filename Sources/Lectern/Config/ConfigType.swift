import Foundation

/// What a setting holds: decides how a value is checked, how an error shows it, and how a
/// `LECTERN_*` variable's text is read.
enum ConfigType: Sendable, Equatable {
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
    /// Bounded above too where a larger value is a mistake (`http.timeout = 1e308`).
    case number(atLeast: Double, atMost: Double? = nil)
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
    var summary: String {
        switch self {
        case .text: return "text"
        case .path: return "path"
        case .url: return "URL"
        case .urlTemplate(let placeholder): return "URL with \(placeholder)"
        case .variableName: return "variable name"
        case .wholeNumber(let low, let high?): return "whole number \(low)–\(high)"
        case .wholeNumber(let low, nil): return "whole number ≥ \(low)"
        case .number(let low, let high?): return "number \(Self.format(low))–\(Self.format(high))"
        case .number(let low, nil): return "number ≥ \(Self.format(low))"
        case .choice(let names): return "one of " + names.joined(separator: ", ")
        case .prices: return "prices"
        }
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
            // A library URL is no path: kept as given, not made relative to the layer's folder.
            if LibraryURL.isPostgres(value.description) { return .string(value.description) }
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
            guard name.isEmpty || EnvironmentVariable.isName(name) else {
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
            if let high, n < low || n > high { throw fail("must be from \(low) to \(high), not \(n)") }
            guard n >= low else { throw fail(low == 1 ? "must be greater than 0" : "must be at least \(low)") }
            return .int(n)
        case .number(let low, let high):
            let d: Double
            switch value {
            case .int(let i): d = Double(i)
            case .double(let x): d = x
            default: throw fail("must be a number, not '\(value)'")
            }
            // NaN and infinity (TOML has both) fall outside every range.
            if let high, !(d >= low && d <= high) { throw fail("must be from \(Self.format(low)) to \(Self.format(high)), not \(value)") }
            guard d >= low, d.isFinite else { throw fail("must be at least \(Self.format(low))") }
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
