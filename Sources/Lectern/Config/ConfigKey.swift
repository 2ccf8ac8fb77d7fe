import Foundation

/// One setting Lectern understands: its dotted name, what it holds, its default, the
/// `LECTERN_*` variable that sets it, and a line of help. `ConfigKey.all` is the one table of
/// them: parsing, validation, the environment mapping, unknown-key warnings and the README's
/// reference all read it, so adding a setting is adding a row.
struct ConfigKey: Sendable {
    /// As written in TOML, dotted: `chunk.max_tokens` is `max_tokens` under `[chunk]`.
    let name: String
    let type: ConfigType
    /// The default as a TOML value would spell it; nil when there is none, or it depends on
    /// something else (the help says what).
    let defaultValue: String?
    /// The `LECTERN_*` variable that sets it.
    let environmentVariable: String
    let help: String
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
    var section: String {
        guard let dot = name.firstIndex(of: ".") else { return "" }
        return String(name[..<dot])
    }

    /// `chunk.max_tokens` → `LECTERN_CHUNK_MAX_TOKENS`. In Swift alone: Foundation's
    /// `replacingOccurrences`, run for every key of the table, was 2% of a `lectern stats` call.
    static func variable(for name: String) -> String {
        "LECTERN_" + String(name.uppercased().map { $0 == "." ? "_" : $0 })
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
    static func named(_ key: String) -> ConfigKey? {
        if let row = byName[key] { return row }
        return all.first { $0.type.isTable && $0.matches(key) }
    }

    static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The known key nearest to an unknown one (by edit distance), when one is near enough to
    /// be the likely meaning: `chunk.max_token` → `chunk.max_tokens`.
    static func nearest(to key: String) -> String? {
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
