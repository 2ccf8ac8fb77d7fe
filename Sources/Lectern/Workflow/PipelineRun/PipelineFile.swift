import Foundation
import TOMLKit

/// A pipeline file (`lectern run FILE`): the library, the sources, stage settings, and the
/// curricula, decks and exports to build from them. Unlike the user's config file it is strict:
/// an unknown key, a wrong type or a source that is not there is an error naming the file, the
/// key and its line, before any work starts. Relative paths are relative to the file (cron
/// starts jobs in $HOME).
public struct PipelineFile: Sendable {
    /// The file as given, for messages.
    public let path: String
    /// The folder relative paths in it are relative to.
    public let directory: String
    /// The file's text as read: what a queued run keeps for its workers (`lectern run --queue`).
    let text: String
    /// The stage settings (`library`, `embedder`, `[chunk]`, `[llm]`, `[http]`, `[openstax]`,
    /// `[wikipedia]`, `[ocw]` …): a configuration layer above the user's config file and below
    /// the environment and flags.
    public let settings: ConfigLayer
    public let sources: [PipelineSource]
    public let curricula: [PipelineCurriculum]
    public let decks: [PipelineDeck]
    public let exports: [PipelineExport]
    /// `[run] jobs`: documents read and embedded at once; nil = the cores (or `--jobs`).
    public let jobs: Int?
    /// `[run] summarise`: summarise the documents a run stored.
    public let summarise: Bool

    /// Reads and checks `path` (relative to the working folder).
    public init(contentsOf path: String) throws {
        let absolute = Configuration.resolvePath(path, base: nil)
        guard let data = FileManager.default.contents(atPath: absolute) else {
            let exists = FileManager.default.fileExists(atPath: absolute)
            throw LecternError(.configuration, path, exists ? "cannot read the pipeline file" : "no such pipeline file")
        }
        try self.init(text: String(decoding: data, as: UTF8.self), name: path,
                      directory: (absolute as NSString).deletingLastPathComponent)
    }

    /// Parses the text of a pipeline file called `name`, whose relative paths are under `directory`.
    init(text: String, name: String, directory: String) throws {
        path = name
        self.directory = directory
        self.text = text
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw LecternError(.configuration, name, error.description, line: error.source.begin.line)
        } catch {
            throw LecternError(.configuration, name, "\(error)")
        }
        let reader = PipelineFileReader(name: name, directory: directory, lines: PipelineFileLines(text))
        var values: [String: ConfigValue] = [:]
        var sources: [PipelineSource] = [], curricula: [PipelineCurriculum] = [], decks: [PipelineDeck] = [], exports: [PipelineExport] = []
        var jobs: Int?, summarise = false
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            switch key {
            case "source":
                sources = try reader.entries(value, table: key).enumerated().map { try reader.source($1, index: $0) }
            case "curriculum":
                curricula = try reader.entries(value, table: key).enumerated().map { try reader.curriculum($1, index: $0) }
            case "deck":
                decks = try reader.entries(value, table: key).enumerated().map { try reader.deck($1, index: $0) }
            case "export":
                exports = try reader.entries(value, table: key).enumerated().map { try reader.export($1, index: $0) }
            case "run":
                let run = try reader.fields(value, table: key, index: nil, known: ["jobs", "summarise"])
                jobs = try run.wholeNumber("jobs", atLeast: 1, atMost: PipelineRun.maxJobs)
                summarise = try run.bool("summarise") ?? false
            case "library":
                // The pipeline's name for the `database` setting.
                values["database"] = .string(try reader.fields(table, table: nil, index: nil, known: []).text(key, of: value))
            default:
                try reader.settings(value, key: key, into: &values)
            }
        }
        guard !sources.isEmpty else {
            throw LecternError(.configuration, name, "no [[source]]: name at least one path, URL or wikipedia/openstax/ocw spec to read")
        }
        try reader.checkNames(sources: sources, curricula: curricula, decks: decks, exports: exports)
        settings = ConfigLayer(name: name, values: values, baseDirectory: directory)
        self.sources = sources
        self.curricula = curricula
        self.decks = decks
        self.exports = exports
        self.jobs = jobs
        self.summarise = summarise
    }
}

/// One `[[source]]`: exactly one of `path` (a file, folder or glob), `url`, `wikipedia`,
/// `openstax`, `ocw`, with its options.
public struct PipelineSource: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case path, url, wikipedia, openstax, ocw
    }

    public var kind: Kind
    /// As written in the file.
    public var value: String
    /// What `ingest` is given: an absolute path or glob, a URL, or a `scheme:` spec.
    public var argument: String
    /// How curricula name it (`name`, else the value as written).
    public var name: String
    public var password: String?
    public var licence: String?
    public var tags: [String]
    /// Where the `[[source]]` starts in the file.
    public var line: Int?
}

/// One `[[curriculum]]`: a curriculum built from the named sources.
public struct PipelineCurriculum: Sendable, Equatable {
    public var name: String
    public var sources: [String]
    public var line: Int?
}

/// One `[[deck]]`: a curriculum's flashcards, written to `output` in `format`.
public struct PipelineDeck: Sendable, Equatable {
    public static let formats = CardExportFormat.allCases.map(\.rawValue)
    public var curriculum: String
    public var format: String
    public var output: String
    public var line: Int?
    /// The line of its `output` key.
    public var outputLine: Int? = nil
}

/// One `[[export]]`: a curriculum written to `output` as UMCF, Markdown or JSON.
public struct PipelineExport: Sendable, Equatable {
    public static let formats = CurriculumExportFormat.allCases.map(\.rawValue)
    public var curriculum: String
    public var format: String
    public var output: String
    public var line: Int?
    /// The line of its `output` key.
    public var outputLine: Int? = nil
}

/// The lines of a pipeline file, for the line a key is on (TOMLKit gives positions only for
/// syntax errors): each line's table header (`[chunk]`, the n-th `[[source]]`) and key.
struct PipelineFileLines: Sendable {
    struct Line: Sendable {
        var number: Int
        var table: String
        /// Which `[[table]]` of that name (0-based), nil for a plain table.
        var index: Int?
        var key: String?
        var isHeader: Bool
    }

    let lines: [Line]

    init(_ text: String) {
        var lines: [Line] = []
        var table = "", index: Int?
        var counts: [String: Int] = [:]
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[[") {
                table = Self.unquoted(trimmed.dropFirst(2).prefix { $0 != "]" })
                index = counts[table, default: 0]
                counts[table, default: 0] += 1
                lines.append(Line(number: offset + 1, table: table, index: index, key: nil, isHeader: true))
            } else if trimmed.hasPrefix("[") {
                table = Self.unquoted(trimmed.dropFirst().prefix { $0 != "]" })
                index = nil
                lines.append(Line(number: offset + 1, table: table, index: nil, key: nil, isHeader: true))
            } else if !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") {
                lines.append(Line(number: offset + 1, table: table, index: index, key: Self.unquoted(trimmed[..<equals]), isHeader: false))
            }
        }
        self.lines = lines
    }

    /// `a . "b c"` → `a.b c`: a dotted key as `ConfigLayer` flattens it.
    static func unquoted(_ key: Substring) -> String {
        key.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
            .joined(separator: ".")
    }

    /// The line of `key` in `table` (the `index`-th of an array of tables); without `key`, the
    /// table's header. A top-level key may also be written dotted under a table (`[chunk]`
    /// `max_tokens` is `chunk.max_tokens`).
    func line(of key: String?, table: String = "", index: Int? = nil) -> Int? {
        guard let key else {
            return lines.first { $0.isHeader && $0.table == table && $0.index == index }?.number
        }
        if let exact = lines.first(where: { !$0.isHeader && $0.table == table && $0.index == index && $0.key == key }) {
            return exact.number
        }
        let dotted = table.isEmpty ? key : table + "." + key
        return lines.first { !$0.isHeader && $0.index == nil && ($0.table.isEmpty ? $0.key : $0.table + "." + ($0.key ?? "")) == dotted }?.number
            ?? lines.first { $0.isHeader && $0.index == nil && $0.table == dotted }?.number
    }
}
