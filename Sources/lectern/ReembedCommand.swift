import ArgumentParser
import Foundation
import Lectern

struct ReembedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reembed",
        abstract: "Rebuild every vector with another embedder (resumable: run again after an interruption).",
        discussion: """
            Vectors of the new embedder are written in batches beside the old ones; the library switches \
            to the new embedder, and drops the old vectors, in one transaction once every passage has one.

              lectern reembed --embedder minilm
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The embedder to switch to: minilm, hashing, openai:<model>, ollama:<model>.")
    var embedder: String

    @Option(help: "Passages embedded per transaction.")
    var batch = 256

    func validate() throws {
        guard batch > 0 else { throw ValidationError("--batch must be greater than 0") }
    }

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        let recorder = try global.startRun(library, command: "reembed")
        let result = try recorder.run { () throws -> ReembedResult in
            var reembedding = Reembedding(library: library, target: try EmbedderCatalog.make(embedder, configuration: configuration),
                                          batchSize: batch)
            reembedding.cancellation = StopSignals.cancellation
            return try reembedding.run(recorder: recorder) { terminal.event($0) }
        }
        terminal.finishProgress()
        if result.switched {
            terminal.out("\(result.passages) passages now use \(result.embedder)")
        } else {
            terminal.out("\(StopSignals.cancellation.reason): \(result.embedded) passages embedded with \(result.embedder) in this run; "
                         + "run `lectern reembed --embedder \(embedder)` again to finish")
        }
        if result.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
    }
}

extension ReembedCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
