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

    struct Summarized: Encodable {
        var documentId: String
        var title: String
        var summaries: [StoredSummary]
    }

    struct Report: Encodable {
        var run: Int64
        var provider: String
        var model: String
        var documents: [Summarized]
        var failed: Int
        var counts: [String: Int]
    }

    func run() throws {
        let configuration = try global.configuration(flags: llm.flags)
        let terminal = global.terminal()
        let store = try global.openStore(configuration, mustExist: true)
        var documents: [StoredDocument] = []
        var failed = 0
        let recorder = try RunRecorder(store: store, command: "summarize", arguments: Array(CommandLine.arguments.dropFirst()))
        if sources.isEmpty {
            documents = try store.allDocuments()
        } else {
            for source in sources {
                let found = try store.documents(matching: source, absolutePath: Configuration.resolvePath(source, base: nil))
                if found.isEmpty {
                    failed += 1
                    let reason = "no document with this id, path or URI (see `lectern sources`)"
                    recorder.fail(input: source, stage: "summarize", reason: reason)
                    terminal.err("lectern: \(source): \(reason)")
                }
                documents += found.filter { doc in !documents.contains { $0.id == doc.id } }
            }
        }
        let summarizer: any Summarizer
        do {
            if let model = try LanguageModelCatalog.make(configuration.llm, http: configuration.http) {
                let library = LibraryModel(model, store: store, recorder: recorder, prices: configuration.llm.prices, useCache: !noCache)
                summarizer = ModelSummarizer(library, maxTokens: configuration.llm.maxTokens, temperature: configuration.llm.temperature)
            } else {
                summarizer = ExtractiveSummarizer()
            }
        } catch {
            recorder.finish(status: .failed)
            throw error
        }
        let writer = DocumentSummaries(store: store, summarizer: summarizer, parallelism: configuration.llm.maxConcurrency)
        var done: [Summarized] = []
        for (index, document) in documents.enumerated() {
            let name = document.path.map(DisplayPath.of) ?? document.uri
            terminal.event(PipelineEvent(.inputStarted, input: name, index: index + 1, total: documents.count))
            do {
                let (summaries, failures) = try writer.summarize(document)
                for failure in failures {
                    recorder.fail(input: name, stage: "summarize", reason: failure.description, warning: true)
                    terminal.err("lectern: warning: \(failure)")
                }
                recorder.count("documents")
                recorder.count("sections", by: summaries.filter { $0.section != nil }.count)
                done.append(Summarized(documentId: document.shortId, title: document.title, summaries: summaries))
            } catch {
                failed += 1
                let reason = (error as? LecternError)?.reason ?? "\(error)"
                recorder.fail(input: name, stage: "summarize", reason: reason)
                terminal.err("lectern: \(name): \(reason)")
            }
            recorder.checkpoint()
        }
        recorder.finish()
        terminal.finishProgress()
        let counts = recorder.snapshot
        if json {
            terminal.json(Report(run: recorder.id, provider: summarizer.provider, model: summarizer.model, documents: done, failed: failed, counts: counts))
        } else {
            let sections = done.reduce(0) { $0 + $1.summaries.filter { $0.section != nil }.count }
            var line = "\(done.count) document\(done.count == 1 ? "" : "s") summarised (\(sections) section\(sections == 1 ? "" : "s")) with \(summarizer.provider)/\(summarizer.model)"
            if failed > 0 { line += ", \(failed) failed" }
            terminal.out(line)
            if let usage = UsageLine.make(counts) { terminal.out(usage) }
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

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
