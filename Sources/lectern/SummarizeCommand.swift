import ArgumentParser
import Foundation
import Lectern

struct SummarizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "Summarise documents and their top-level sections, and store the summaries.",
        discussion: """
            With llm.provider and llm.model configured, a language model writes the summaries
            (answers are cached in the library: running again costs nothing); without one, an
            offline extractive method (TextRank) picks 3–5 central sentences and key phrases.
            `lectern show DOC` prints them.

              lectern summarize                         every document
              lectern summarize notes/cells.md 3fa1
              LECTERN_LLM_PROVIDER=ollama LECTERN_LLM_MODEL=llama3.2 lectern summarize --no-cache
              lectern summarize --provider ollama --model llama3.2
            """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup(title: "Language model") var llm: LLMOptions

    @Argument(help: "Documents or sources (path, folder, URI or short id); all documents when none is given.")
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
        var summarizer: (any Summarizer)?
        let batch = try recorder.run { () throws -> SummaryBatch in
            let chosen: any Summarizer
            if let model = try LanguageModelCatalog.make(configuration.llm, http: configuration.http) {
                let library = LibraryModel(model, store: store, recorder: recorder, prices: configuration.llm.prices, useCache: !noCache)
                chosen = ModelSummarizer(library, maxTokens: configuration.llm.maxTokens, temperature: configuration.llm.temperature)
            } else {
                chosen = ExtractiveSummarizer()
            }
            summarizer = chosen
            let writer = DocumentSummaries(store: store, summarizer: chosen, parallelism: configuration.llm.maxConcurrency)
            return try writer.summarize(sources, recorder: recorder, cancellation: StopSignals.cancellation) { terminal.event($0) }
        }
        terminal.finishProgress()
        let counts = recorder.snapshot
        let provider = summarizer?.provider ?? "", model = summarizer?.model ?? ""
        if json {
            terminal.json(Report(run: recorder.id, provider: provider, model: model, documents: batch.documents, failed: batch.failed, counts: counts))
        } else {
            let done = batch.documents.count, sections = batch.sections
            var line: TerminalText = "\(done) document\(done == 1 ? "" : "s") summarised (\(sections) section\(sections == 1 ? "" : "s")) with \(provider)/\(model)"
            if batch.failed > 0 { line += ", \(batch.failed) failed" }
            if batch.stopped == .interrupted { line += ", \(StopSignals.cancellation.reason): \(batch.notRead) not read" }
            terminal.out(line)
            if let usage = UsageLine.make(counts) { terminal.out("\(usage)") }
        }
        if batch.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
        if batch.failed > 0 { throw ExitCode(1) }
    }
}

extension SummarizeCommand: ReportsEvents, StopsAtDocumentBoundaries {}

/// "tokens 1,234 in / 210 out, 3 calls, 2 cached, cost $0.0012" from a run's counts.
enum UsageLine {
    static func make(_ counts: [String: Int]) -> String? {
        let calls = counts["llm.calls"] ?? 0
        let hits = counts["llm.cache_hits"] ?? 0
        guard calls + hits > 0 else { return nil }
        var parts = ["tokens \(counts["llm.input_tokens"] ?? 0) in / \(counts["llm.output_tokens"] ?? 0) out",
                     "\(calls) call\(calls == 1 ? "" : "s")", "\(hits) cached"]
        if let micro = counts["llm.cost_microusd"] { parts.append(String(format: "cost $%.4f", Double(micro) / 1_000_000)) }
        return parts.joined(separator: ", ")
    }
}
