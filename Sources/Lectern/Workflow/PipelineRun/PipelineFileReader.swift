import Foundation
import TOMLKit

/// Reads the parts of a pipeline file, each error one line naming the file, the key and its line.
struct PipelineFileReader {
    let name: String
    let directory: String
    let lines: PipelineFileLines

    func error(_ key: String, table: String = "", index: Int? = nil, _ reason: String) -> LecternError {
        let shown = table.isEmpty ? key : index.map { "\(table)[\($0 + 1)].\(key)" } ?? "\(table).\(key)"
        return LecternError(.configuration, name, "\(shown) \(reason)", line: lines.line(of: key, table: table, index: index))
    }

    /// The tables of a `[[table]]` array.
    func entries(_ value: any TOMLValueConvertible, table: String) throws -> [TOMLTable] {
        guard let array = value.array else {
            throw LecternError(.configuration, name, "\(table) must be written [[\(table)]], one table each",
                               line: lines.line(of: table) ?? lines.line(of: nil, table: table))
        }
        return try array.map { element in
            guard let entry = element.table else { throw error(table, "must be a table, as [[\(table)]]") }
            return entry
        }
    }

    /// The keys of one table, refusing any not in `known`.
    func fields(_ value: any TOMLValueConvertible, table: String?, index: Int?, known: Set<String>) throws -> Fields {
        guard let contents = value.table else {
            throw error(table ?? "", "must be a table")
        }
        if let table {
            for key in contents.keys.sorted() where !known.contains(key) {
                let near = known.map { ($0, EditDistance.between(key, $0)) }.min { $0.1 < $1.1 }
                let hint = near.flatMap { $0.1 <= max(2, key.count / 3) ? " (did you mean \($0.0)?)" : nil } ?? ""
                throw error(key, table: table, index: index, "is not a key of [\(index == nil ? table : "[\(table)]")]\(hint)")
            }
        }
        return Fields(table: contents, tableName: table ?? "", index: index, reader: self)
    }

    /// A table's values, read by type.
    struct Fields {
        let table: TOMLTable
        let tableName: String
        let index: Int?
        let reader: PipelineFileReader

        func fail(_ key: String, _ reason: String) -> LecternError { reader.error(key, table: tableName, index: index, reason) }

        func text(_ key: String, of value: (any TOMLValueConvertible)? = nil) throws -> String {
            guard let value = value ?? table[key] else { throw fail(key, "is missing") }
            guard value.type == .string, let text = value.string else { throw fail(key, "must be a string, not \(value.type)") }
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail(key, "is empty") }
            return text
        }

        func optionalText(_ key: String) throws -> String? {
            table[key] == nil ? nil : try text(key)
        }

        func texts(_ key: String) throws -> [String]? {
            guard let value = table[key] else { return nil }
            guard let array = value.array else { throw fail(key, "must be an array of strings, not \(value.type)") }
            return try array.map {
                guard $0.type == .string, let text = $0.string else { throw fail(key, "must be an array of strings, not of \($0.type)") }
                return text
            }
        }

        func bool(_ key: String) throws -> Bool? {
            guard let value = table[key] else { return nil }
            guard value.type == .bool, let flag = value.bool else { throw fail(key, "must be true or false, not \(value.type)") }
            return flag
        }

        func wholeNumber(_ key: String, atLeast low: Int, atMost high: Int) throws -> Int? {
            guard let value = table[key] else { return nil }
            guard value.type == .int, let number = value.int else { throw fail(key, "must be a whole number, not \(value.type)") }
            guard number >= low, number <= high else { throw fail(key, "must be from \(low) to \(high), not \(number)") }
            return number
        }

        func choice(_ key: String, _ names: [String]) throws -> String {
            let value = try text(key)
            guard names.contains(value.lowercased()) else { throw fail(key, "'\(value)' is not one of \(names.joined(separator: ", "))") }
            return value.lowercased()
        }

        /// An output's absolute path; its extension must not name another format than `format`.
        /// Its folder need not exist yet.
        func outputPath(_ key: String, format: String) throws -> String {
            let written = try text(key)
            if let named = OutputFile.formatMismatch(written, format: format) {
                throw fail(key, "'\(written)' has the extension of \(named), but format is \(format): name the file .\(format) or write format = \"\(named)\"")
            }
            // A folder that is not there yet is made when the output is written (the plan says so).
            let output = Configuration.resolvePath(written, base: reader.directory)
            var isDirectory: ObjCBool = false
            let folder = (output as NSString).deletingLastPathComponent
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw fail(key, "names a file in \(folder), which is a file, not a folder")
            }
            return output
        }
    }

    func source(_ table: TOMLTable, index: Int) throws -> PipelineSource {
        let kinds = PipelineSource.Kind.allCases.map(\.rawValue)
        let fields = try self.fields(table, table: "source", index: index,
                                     known: Set(kinds + ["name", "password", "licence", "license", "tags"]))
        let given = kinds.filter { table.contains(key: $0) }
        guard given.count == 1, let kindName = given.first, let kind = PipelineSource.Kind(rawValue: kindName) else {
            let reason = given.isEmpty ? "names nothing to read: give one of \(kinds.joined(separator: ", "))"
                : "gives \(given.joined(separator: " and ")): one source a [[source]]"
            throw LecternError(.configuration, name, "source[\(index + 1)] \(reason)", line: lines.line(of: nil, table: "source", index: index))
        }
        let value = try fields.text(kindName)
        let argument: String
        switch kind {
        case .path:
            argument = Configuration.resolvePath(value, base: directory)
            if GlobPattern.isPattern(argument) {
                guard !InputExpander.glob(argument).isEmpty else { throw fields.fail(kindName, "'\(value)' matches no file") }
            } else if !FileManager.default.fileExists(atPath: argument) {
                throw fields.fail(kindName, "'\(value)': no such file or folder (relative paths are relative to the pipeline file)")
            }
        case .url:
            let lower = value.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw fields.fail(kindName, "must be an http or https URL, not '\(Redaction.url(value))'")
            }
            argument = value
        case .wikipedia, .openstax, .ocw:
            argument = kindName + ":" + value
            if let problem = SourceSpec.problem(with: argument) { throw fields.fail(kindName, problem) }
        }
        return PipelineSource(
            kind: kind, value: value, argument: argument, name: try fields.optionalText("name") ?? value,
            password: try fields.optionalText("password"),
            licence: try fields.optionalText("licence") ?? fields.optionalText("license"),
            tags: try fields.texts("tags") ?? [], line: lines.line(of: nil, table: "source", index: index))
    }

    func curriculum(_ table: TOMLTable, index: Int) throws -> PipelineCurriculum {
        let fields = try self.fields(table, table: "curriculum", index: index, known: ["name", "sources"])
        guard let sources = try fields.texts("sources") else { throw fields.fail("sources", "is missing: name the [[source]]s it is built from") }
        guard !sources.isEmpty else { throw fields.fail("sources", "is empty: name the [[source]]s it is built from") }
        return PipelineCurriculum(name: try fields.text("name"), sources: sources, line: lines.line(of: nil, table: "curriculum", index: index))
    }

    func deck(_ table: TOMLTable, index: Int) throws -> PipelineDeck {
        let fields = try self.fields(table, table: "deck", index: index, known: ["curriculum", "format", "output"])
        let format = try fields.choice("format", PipelineDeck.formats)
        return PipelineDeck(curriculum: try fields.text("curriculum"), format: format,
                            output: try fields.outputPath("output", format: format), line: lines.line(of: nil, table: "deck", index: index),
                            outputLine: lines.line(of: "output", table: "deck", index: index))
    }

    func export(_ table: TOMLTable, index: Int) throws -> PipelineExport {
        let fields = try self.fields(table, table: "export", index: index, known: ["curriculum", "format", "output"])
        let format = try fields.choice("format", PipelineExport.formats)
        return PipelineExport(curriculum: try fields.text("curriculum"), format: format,
                              output: try fields.outputPath("output", format: format), line: lines.line(of: nil, table: "export", index: index),
                              outputLine: lines.line(of: "output", table: "export", index: index))
    }

    /// A stage setting (a `ConfigKey.all` row), type-checked here so that an error has its line.
    func settings(_ value: any TOMLValueConvertible, key: String, into values: inout [String: ConfigValue]) throws {
        if let table = value.table, !(ConfigKey.named(key)?.type.isTable ?? false) {
            for inner in table.keys.sorted() {
                if let nested = table[inner] { try settings(nested, key: key + "." + inner, into: &values) }
            }
            return
        }
        func fail(_ reason: String) -> LecternError {
            LecternError(.configuration, name, "\(key) \(reason)", line: lines.line(of: key))
        }
        guard let row = ConfigKey.named(key) else {
            throw fail("is not a setting" + (ConfigKey.nearest(to: key).map { " (did you mean \($0)?)" } ?? ""))
        }
        if let table = value.table {
            // A table of entries (`[llm.prices."MODEL"]`): its keys as `ConfigLayer` flattens them.
            var layer: [String: ConfigValue] = [:]
            for inner in table.keys.sorted() {
                if let nested = table[inner] { try settings(nested, key: key + "." + inner, into: &layer) }
            }
            values.merge(layer) { $1 }
            return
        }
        let config: ConfigValue
        switch value.type {
        case .string: config = .string(value.string ?? "")
        case .int: config = .int(value.int ?? 0)
        case .double: config = .double(value.double ?? 0)
        case .bool: config = .bool(value.bool ?? false)
        default: throw fail("must be a string or a number, not \(value.type)")
        }
        switch row.type {
        case .wholeNumber, .number:
            break
        default:
            guard value.type == .string || row.type.isTable else { throw fail("must be a string, not \(value.type)") }
        }
        do {
            _ = try row.type.check(config, key: key, layer: name, baseDirectory: directory)
        } catch let error as LecternError {
            throw LecternError(.configuration, name, error.reason, line: lines.line(of: key))
        }
        values[key] = config
    }

    /// Source names are unique; curricula, decks and exports name ones that exist.
    func checkNames(sources: [PipelineSource], curricula: [PipelineCurriculum], decks: [PipelineDeck], exports: [PipelineExport]) throws {
        var seen = Set<String>()
        for (index, source) in sources.enumerated() where !seen.insert(source.name).inserted {
            throw error("name", table: "source", index: index, "'\(source.name)' names two sources: give each its own name")
        }
        var names = Set<String>()
        for (index, curriculum) in curricula.enumerated() {
            guard names.insert(curriculum.name).inserted else {
                throw error("name", table: "curriculum", index: index, "'\(curriculum.name)' names two curricula")
            }
            for source in curriculum.sources where !seen.contains(source) {
                throw error("sources", table: "curriculum", index: index,
                            "names '\(source)', which is no [[source]]'s name (known: \(sources.map(\.name).joined(separator: ", ")))")
            }
        }
        for (index, deck) in decks.enumerated() where !names.contains(deck.curriculum) {
            throw error("curriculum", table: "deck", index: index, "names '\(deck.curriculum)', which is no [[curriculum]]'s name")
        }
        for (index, export) in exports.enumerated() where !names.contains(export.curriculum) {
            throw error("curriculum", table: "export", index: index, "names '\(export.curriculum)', which is no [[curriculum]]'s name")
        }
        var outputs = Set<String>()
        for output in decks.map(\.output) + exports.map(\.output) where !outputs.insert(output).inserted {
            throw LecternError(.configuration, name, "two outputs write \(output)")
        }
    }
}
