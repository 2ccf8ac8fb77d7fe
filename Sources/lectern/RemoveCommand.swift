import ArgumentParser
import Foundation
import Lectern

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove sources (and their passages and vectors) from the library.",
        discussion: "SOURCE is a path (a folder removes everything under it), a URI or a document id.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to remove.")
    var sources: [String]

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let store = try global.openStore(configuration, mustExist: true)
        let recorder = try RunRecorder(store: store, command: "rm", arguments: sources)
        var removed: [String] = []
        var failed = false
        try recorder.run {
            for source in sources {
                let documents = try store.documents(matching: source, absolutePath: Configuration.resolvePath(source, base: nil))
                if documents.isEmpty {
                    terminal.err("lectern: \(source): not in the library")
                    recorder.fail(input: source, stage: "rm", reason: "not in the library")
                    failed = true
                    continue
                }
                removed += try store.removeDocuments(documents)
            }
            recorder.count("removed", by: removed.count)
        }
        if json { terminal.json(removed) } else { for uri in removed { terminal.out("removed \(uri)") } }
        if failed { throw ExitCode(1) }
    }
}

struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Remove documents whose file or folder no longer exists.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only list what would be removed.")
    var dryRun = false

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let store = try global.openStore(configuration, mustExist: true)
        let gone = try store.allDocuments().filter { doc in
            guard let path = doc.path else { return false }
            return !FileManager.default.fileExists(atPath: path)
        }
        var removed: [String] = gone.map(\.uri)
        if !dryRun {
            let recorder = try RunRecorder(store: store, command: "prune", arguments: [])
            removed = try recorder.run {
                let removed = try store.removeDocuments(gone)
                recorder.count("removed", by: removed.count)
                return removed
            }
        }
        if json { terminal.json(removed) } else {
            for uri in removed { terminal.out((dryRun ? "would remove " : "removed ") + uri) }
            if removed.isEmpty { terminal.out("nothing to prune") }
        }
    }
}
