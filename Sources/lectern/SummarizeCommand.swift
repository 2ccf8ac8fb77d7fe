import ArgumentParser
import Foundation
import Lectern

struct SummarizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "Summarise documents and their top-level sections, and store the summaries.",
        discussion: """
            With llm.provider and llm.model configured, a language model writes the summaries \
            (answers are cached in the library: running again costs nothing); without one, an \
            offline extractive method (TextRank) picks 3–5 central sentences and key phrases. \
            `lectern show DOC` prints them.

              lectern summarize                         every document
              lectern summarize notes/cells.md 3fa1
              LECTERN_LLM_PROVIDER=ollama LECTERN_LLM_MODEL=llama3.2 \\
                lectern summarize --no-cache
              lectern summarize --provider ollama --model llama3.2
            """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup(title: "Language model") var llm: LLMOptions

    @Argument(help: "Documents or sources (path, folder, URI or short id); all documents when none is given.", completion: .file())
    var sources: [String] = []

    @Flag(name: .customLong("no-cache"), help: "Ask the model again even when the library holds its answer.")
    var noCache = false

    @Flag(help: "Print the summaries as JSON.")
    var json = false

    struct Report: Encodable {
        var run: Int64
        var provider: String
        var model: String
        var documents: [SummarizedDocument]
        var failed: Int
        var counts: [String: Int]
    }

    func run() throws {
        let configuration = try global.configuration(flags: llm.flags)
        let terminal = global.terminal()
        let store = try global.openStore(configuration, mustExist: true)
        let recorder = try global.startRun(store, command: "summarize")
        let batch = try terminal.withSpinner("summarising") { try recorder.run { () throws -> SummaryBatch in
            let chosen: any Summarizer
            if let model = try LanguageModelCatalog.make(configuration.llm, http: configuration.http) {
                let library = LibraryModel(model, store: store, recorder: recorder, prices: configuration.llm.prices, useCache: !noCache)
                chosen = ModelSummarizer(library, maxTokens: configuration.llm.maxTokens, temperature: configuration.llm.temperature)
            } else {
                chosen = ExtractiveSummarizer()
            }
            let writer = DocumentSummaries(store: store, summarizer: chosen, parallelism: configuration.llm.maxConcurrency)
            return try writer.summarize(sources, recorder: recorder, cancellation: StopSignals.cancellation) { terminal.event($0) }
        } }
        terminal.finishProgress()
        let counts = recorder.snapshot
        if json {
            terminal.json(Report(run: recorder.id, provider: batch.provider, model: batch.model, documents: batch.documents,
                                 failed: batch.failed, counts: counts))
        } else {
            let done = batch.documents.count, sections = batch.sections
            var line: TerminalText = "\(done) document\(done == 1 ? "" : "s") summarised (\(sections) section\(sections == 1 ? "" : "s")) with \(batch.provider)/\(batch.model)"
            if batch.failed > 0 { line += ", \(batch.failed) failed" }
            if batch.stopped == .interrupted { line += ", \(StopSignals.cancellation.reason): \(batch.notRead) not read" }
            terminal.out(line)
            if let usage = UsageLine.make(counts) { terminal.out("\(usage)") }
        }
        if batch.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
        if batch.failed > 0 { throw ExitCode(1) }
    }
}

extension SummarizeCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
