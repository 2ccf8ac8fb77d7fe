import ArgumentParser
import Foundation
import Lectern

/// What a shell offers on TAB where a command takes a curriculum's name, a topic's id or a
/// document's short id: read from the library the command line names (`--db FILE`, else
/// `$LECTERN_DB`, the config file, the default library), opened read-only. A library that
/// cannot be opened offers nothing rather than an error in the middle of the user's line.
enum Completions {
    static let curricula = CompletionKind.custom { words, _, prefix in
        matching(prefix, (try? library(words).map { try Curricula.list($0).map(\.name) }) ?? nil)
    }

    /// Topic ids, of the curriculum the line names (`cards generate NAME`, `--curriculum NAME`)
    /// when it names one, else of every curriculum.
    static let topics = CompletionKind.custom { words, _, prefix in
        matching(prefix, (try? library(words).map { store -> [String] in
            let names = try Curricula.list(store).map(\.name)
            let named = names.filter { words.contains($0) }
            return try (named.isEmpty ? names : named).flatMap { name in
                try Curricula.view(named: name, in: store)?.units.flatMap { $0.topics.map(\.id) } ?? []
            }
        }) ?? nil)
    }

    /// Documents' short ids, and the paths of those read from files.
    static let documents = CompletionKind.custom { words, _, prefix in
        matching(prefix, (try? library(words).map { store in
            try LibraryListing.sources(in: store).flatMap { $0.documents.map(\.shortId) }
        }) ?? nil)
    }

    static func matching(_ prefix: String, _ candidates: [String]?) -> [String] {
        (candidates ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The library of the line being completed, read-only; nil when there is none.
    static func library(_ words: [String]) throws -> LibraryStore? {
        var flags: [String: ConfigValue] = [:]
        if let index = words.firstIndex(of: "--db"), index + 1 < words.count {
            flags["database"] = .string(words[index + 1])
        } else if let word = words.first(where: { $0.hasPrefix("--db=") }) {
            flags["database"] = .string(String(word.dropFirst(5)))
        }
        let configuration = try Configuration.load(flags: flags)
        let path = Configuration.resolvePath(configuration.database, base: nil)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try LibraryStore(path: path, display: path, access: .read)
    }
}
