import Foundation
import TOMLKit

/// The settings one source gives (a TOML file, the environment, flags), as dotted keys
/// (`chunk.max_tokens`), with the folder that relative paths in it are relative to.
public struct ConfigLayer: Sendable {
    var name: String
    var values: [String: ConfigValue]
    /// Relative paths in this layer are resolved against this folder; nil = the working directory.
    var baseDirectory: String?
    /// Keys in the file that no setting has (when such keys are warned about, not refused).
    var warnings: [ConfigWarning] = []

    /// What a file's unknown key is: a warning (the user's config file, which an older or newer
    /// Lectern may share) or an error (a pipeline file, written for this run).
    enum UnknownKeys: Sendable {
        case warn
        case reject
    }

    init(name: String, values: [String: ConfigValue], baseDirectory: String? = nil) {
        self.name = name
        self.values = values
        self.baseDirectory = baseDirectory
    }

    /// Reads a TOML file. A missing file gives an empty layer when `optional`.
    static func file(_ path: String, optional: Bool = false, unknownKeys: UnknownKeys = .warn) throws -> ConfigLayer {
        let directory = (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: path) else {
            if optional { return ConfigLayer(name: path, values: [:], baseDirectory: directory) }
            throw LecternError(.notFound, path, "configuration file not found")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LecternError(.unreadable, path, "cannot read configuration file")
        }
        return try toml(String(decoding: data, as: UTF8.self), name: path, baseDirectory: directory, unknownKeys: unknownKeys)
    }

    static func toml(_ text: String, name: String, baseDirectory: String?, unknownKeys: UnknownKeys = .warn) throws -> ConfigLayer {
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
        var layer = ConfigLayer(name: name, values: values, baseDirectory: baseDirectory)
        for key in values.keys.sorted() where ConfigKey.named(key) == nil {
            let warning = ConfigWarning(file: name, key: key)
            if unknownKeys == .reject { throw LecternError(.configuration, name, warning.message) }
            layer.warnings.append(warning)
        }
        return layer
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

    /// `LECTERN_*` variables: each key's variable (`LECTERN_CHUNK_MAX_TOKENS` sets
    /// `chunk.max_tokens`, `LECTERN_DB` sets `database`), read by the key's type. Other
    /// `LECTERN_*` variables (`LECTERN_CONFIG`) are not settings and are left alone.
    static func environment(_ environment: [String: String], keys: [ConfigKey] = ConfigKey.all) -> ConfigLayer {
        var byVariable: [String: ConfigKey] = [:]
        for key in keys {
            // The spelled-out form works for every key, `LECTERN_DATABASE` as well as `LECTERN_DB`.
            byVariable[ConfigKey.variable(for: key.name)] = key
            byVariable[key.environmentVariable] = key
        }
        var values: [String: ConfigValue] = [:]
        for (variable, text) in environment where variable.hasPrefix("LECTERN_") {
            guard let key = byVariable[variable] else { continue }
            values[key.name] = key.type.readsEnvironmentAsText ? .string(text) : ConfigValue.parse(text)
        }
        return ConfigLayer(name: "environment", values: values)
    }

    /// The variables of the keys named in `knownKeys` only.
    static func environment(_ environment: [String: String], knownKeys: [String]) -> ConfigLayer {
        let known = Set(knownKeys)
        return self.environment(environment, keys: ConfigKey.all.filter { known.contains($0.name) })
    }
}
