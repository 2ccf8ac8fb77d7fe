import ArgumentParser
import Foundation
import Lectern

struct ReembedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reembed",
        abstract: "Rebuild every vector with another embedder (resumable: run again after an interruption).",
        discussion: """
            Vectors of the new embedder are written in batches beside the old ones; the library switches
            to the new embedder, and drops the old vectors, in one transaction once every passage has one.
              lectern reembed --embedder minilm
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The embedder to switch to: minilm, hashing, openai:<model>, ollama:<model>.")
    var embedder: String

    @Option(help: "Passages embedded per transaction.")
    var batch = 256

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let store = try global.openStore(configuration, mustExist: true)
        let target = try EmbedderCatalog.make(embedder, configuration: configuration)
        let recorder = try RunRecorder(store: store, command: "reembed", arguments: ["--embedder", embedder])
        let total = try recorder.run { () throws -> Int in
            try store.setSetting("reembed_target", target.info.key)
            let total = try store.stats().passages
            var done = try store.passageIdsWithVectors(target.info).count
            while true {
                let pending = try store.passagesMissingVectors(target.info, limit: batch)
                if pending.isEmpty { break }
                let vectors = try target.embed(pending.map(\.text))
                try store.addVectors(ids: pending.map(\.id), vectors: vectors, embedder: target.info)
                done += pending.count
                recorder.count("vectors", by: pending.count)
                recorder.checkpoint()
                terminal.event(PipelineEvent(.progress, input: "reembed", message: target.info.name, index: done, total: total))
            }
            try store.switchEmbedder(to: target.info)
            return total
        }
        terminal.finishProgress()
        terminal.out("\(total) passages now use \(target.info.description)")
    }
}

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print a file's typed blocks without storing them (the reader ingest would use).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A file or folder.")
    var path: String

    @Option(help: "Password for encrypted PDFs.")
    var password: String?

    @Flag(help: "Print the whole extracted document as JSON.")
    var json = false

    func run() throws {
        let terminal = global.terminal()
        let (items, failures) = InputExpander(registry: .standard).expand([path])
        if let failure = failures.first { throw failure }
        guard let item = items.first else { throw LecternError(.notFound, path, "nothing to read") }
        let documents = DocumentReader(options: ExtractOptions(password: password))
        let input = try documents.load(item)
        var (reader, document) = try documents.extract(input, display: item.display)
        if document.title.isEmpty { document.title = TextCleanup.titleFromPath(item.display) }
        for warning in document.warnings {
            let (line, message) = ExtractedDocument.lineOf(warning: warning)
            terminal.err("lectern: warning: \(item.display)\(line.map { ":\($0)" } ?? ""): \(message)")
        }
        if json {
            terminal.json(document)
            return
        }
        terminal.out(terminal.bold(document.title) + terminal.dim("  (\(document.type), read by \(reader.name))"))
        for block in document.blocks {
            var place = block.page.map { "p.\($0) " } ?? ""
            if let start = block.start { place += "@\(Location.formatTime(start)) " }
            if let speaker = block.speaker, block.kind == .cue { place += "\(speaker) " }
            terminal.out(terminal.dim("\(place)\(block.kind.rawValue)\(block.level.map { "/\($0)" } ?? "")") + "  " + block.text)
        }
    }
}
