import Foundation
import TOMLKit

/// The settings one source gives (a TOML file, the environment, flags), as dotted keys
/// (`chunk.max_tokens`), with the folder that relative paths in it are relative to.
public struct ConfigLayer: Sendable {
    public var name: String
    public var values: [String: ConfigValue]
    /// Relative paths in this layer are resolved against this folder; nil = the working directory.
    public var baseDirectory: String?

    public init(name: String, values: [String: ConfigValue], baseDirectory: String? = nil) {
        self.name = name
        self.values = values
        self.baseDirectory = baseDirectory
    }

    /// Reads a TOML file. A missing file gives an empty layer when `optional`.
    public static func file(_ path: String, optional: Bool = false) throws -> ConfigLayer {
        let directory = (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: path) else {
            if optional { return ConfigLayer(name: path, values: [:], baseDirectory: directory) }
            throw LecternError(.notFound, path, "configuration file not found")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LecternError(.unreadable, path, "cannot read configuration file")
        }
        return try toml(String(decoding: data, as: UTF8.self), name: path, baseDirectory: directory)
    }

    public static func toml(_ text: String, name: String, baseDirectory: String?) throws -> ConfigLayer {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw LecternError(.configuration, name, "line \(error.source.begin.line): \(error.description)")
        } catch {
            throw LecternError(.configuration, name, "\(error)")
        }
        var values: [String: ConfigValue] = [:]
        flatten(table, prefix: "", into: &values)
        return ConfigLayer(name: name, values: values, baseDirectory: baseDirectory)
    }

    private static func flatten(_ table: TOMLTable, prefix: String, into values: inout [String: ConfigValue]) {
        for key in table.keys {
            guard let value = table[key] else { continue }
            let dotted = prefix.isEmpty ? key : prefix + "." + key
            if let nested = value.table {
                flatten(nested, prefix: dotted, into: &values)
            } else if let b = value.bool, value.type == .bool {
                values[dotted] = .bool(b)
            } else if let i = value.int, value.type == .int {
                values[dotted] = .int(i)
            } else if let d = value.double, value.type == .double {
                values[dotted] = .double(d)
            } else if let s = value.string {
                values[dotted] = .string(s)
            } else if let array = value.array {
                values[dotted] = .strings(array.compactMap { $0.string ?? $0.int.map(String.init) })
            }
        }
    }

    /// `LECTERN_*` variables: `LECTERN_CHUNK_MAX_TOKENS` sets `chunk.max_tokens` when that key
    /// is known; `LECTERN_DB` and `LECTERN_MODELS` are the short forms of two common ones.
    public static func environment(_ environment: [String: String], knownKeys: [String]) -> ConfigLayer {
        var values: [String: ConfigValue] = [:]
        let aliases = ["LECTERN_DB": "database", "LECTERN_MODELS": "models_dir"]
        var byVariable: [String: String] = [:]
        for key in knownKeys {
            byVariable["LECTERN_" + key.uppercased().replacingOccurrences(of: ".", with: "_")] = key
        }
        for (variable, text) in environment where variable.hasPrefix("LECTERN_") {
            if let key = aliases[variable] ?? byVariable[variable] {
                values[key] = key == "database" || key == "models_dir" ? .string(text) : ConfigValue.parse(text)
            }
        }
        return ConfigLayer(name: "environment", values: values)
    }
}
