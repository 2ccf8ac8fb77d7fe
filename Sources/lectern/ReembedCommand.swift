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
