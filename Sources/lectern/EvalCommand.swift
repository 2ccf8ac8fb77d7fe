import ArgumentParser
import Foundation
import Lectern

/// Which search modes an evaluation runs.
enum EvalModes: String, ExpressibleByArgument, CaseIterable {
    case keyword, semantic, hybrid, all

    var modes: [SearchMode] {
        switch self {
        case .keyword: return [.keyword]
        case .semantic: return [.semantic]
        case .hybrid: return [.hybrid]
        case .all: return [.keyword, .semantic, .hybrid]
        }
    }
}

struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure retrieval quality on a BEIR-format dataset: nDCG@10, Recall@100, MRR@10.",
        discussion: """
            DIR holds corpus.jsonl ({"_id", "title", "text"} a line), queries.jsonl ({"_id", \
            "text"} a line) and qrels/SPLIT.tsv (a header, then query-id, corpus-id, score; \
            tab-separated). Each corpus record is ingested as one document (its title the \
            document's title) into a temporary library with the configured embedder; every \
            judged query is searched, and corpus documents are ranked by their best passage.

            The measures are trec_eval's (pytrec_eval gives the same figures on --run-file): \
            nDCG@10 with LINEAR gain (a document judged 3 gains 3, not 2^3 − 1) and the ideal \
            ranking from every judged document; Recall@100 counts documents judged 1 or more; \
            MRR@10 is 1/rank of the first such document in the top 10. A query that finds \
            nothing scores 0. The time per query is the search's wall time (and its CPU time, \
            steadier on a busy machine), query embedding included, at --depth passages.

              lectern eval ./scifact --mode all
              lectern eval ./set --split dev --json --run-file run.trec
              lectern eval ./set --keep /tmp/set-library   # build once, then reuse
            """
    )

    @Argument(help: "The BEIR dataset's folder.")
    var directory: String

    @Option(help: "keyword, semantic, hybrid, or all (each in turn).")
    var mode: EvalModes = .all

    @Option(help: "Which qrels/SPLIT.tsv judges the queries.")
    var split = "test"

    @Option(help: "Embedder for the library (default: the configured one).")
    var embedder: String?

    @Option(help: "Passages searched per query before they are grouped into documents.")
    var depth = 300

    @Option(help: "Write the ranking in TREC format (qid Q0 docid rank score tag); with several modes, PATH gets the mode before its extension.")
    var runFile: String?

    @Option(help: "Keep the library in this folder (reused, and updated, when run again).")
    var keep: String?

    @Option(help: ArgumentHelp("Build the library in this PostgreSQL database instead of a file (postgres://user@host:port/dbname; its documents are replaced by the corpus's).", valueName: "url"))
    var db: String?

    @Option(help: "Write every passage as a JSON line ({corpus_id, passage, section, text}) for other rankers.")
    var dumpPassages: String?

    @Option(help: "How progress and problems reach stderr: text, or json (one JSON object a line).")
    var events: EventFormat?

    @Flag(help: "Print the figures, with each query's, as JSON.")
    var json = false

    func validate() throws {
        if depth < 1 { throw ValidationError("--depth must be at least 1") }
        if let db, !LibraryURL.isPostgres(db) { throw ValidationError("--db takes a PostgreSQL URL (postgres://user@host:port/dbname); --keep names a folder for a library file") }
    }

    func run() throws {
        let configuration = try Configuration.load()
        let terminal = Terminal(events: events ?? .text)
        let dataset = try BEIRDataset.load(directory: directory, split: split)
        if dataset.queries.isEmpty {
            throw LecternError(.empty, directory + "/qrels/\(split).tsv", "no judged queries")
        }
        let chosen = try EmbedderCatalog.make(embedder ?? configuration.embedder, configuration: configuration)
        let folder = keep.map { Configuration.resolvePath($0, base: nil) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("lectern-eval-\(UUID().uuidString)").path
        // Neither output may land on the dataset or the evaluation's library.
        var protected = ProtectedPaths()
        protected.addSource(Configuration.resolvePath(directory, base: nil), what: "the dataset")
        protected.addFolder(folder, what: "the evaluation's library folder")
        for output in [runFile, dumpPassages].compactMap({ $0 }) where !OutputFile.isStandardOutput(output) {
            try protected.check(output)
        }
        // A temporary library goes when the command ends, or when a signal stops it at once.
        if keep == nil { TemporaryFolders.track(folder) }
        defer {
            if keep == nil {
                try? FileManager.default.removeItem(atPath: folder)
                TemporaryFolders.untrack(folder)
            }
        }

        let ingestStart = Date()
        let (library, summary) = try EvalLibrary.build(dataset.corpus, in: folder, database: db, embedder: chosen,
                                                       configuration: configuration) { terminal.event($0) }
        let ingestSeconds = Date().timeIntervalSince(ingestStart)
        terminal.finishProgress()
        let stats = try library.library.stats()

        if let dumpPassages {
            var lines = ""
            for (corpusId, passage) in try library.passages() {
                let line = DumpedPassage(corpusId: corpusId, passage: passage.id, section: passage.sectionPath, text: passage.text)
                if let data = Terminal.compactJSON(line) { lines += String(decoding: data, as: UTF8.self) + "\n" }
            }
            try write(lines, to: dumpPassages)
        }

        var evaluation = RetrievalEvaluation(library: library, embedder: chosen)
        evaluation.passageDepth = depth
        var results: [ModeEvaluation] = []
        for mode in mode.modes {
            let result = try evaluation.evaluate(dataset, mode: mode) { done, total in
                terminal.event(PipelineEvent(.progress, input: "eval", message: mode.rawValue, index: done, total: total))
            }
            terminal.finishProgress()
            results.append(result)
            if let runFile {
                let path = self.mode.modes.count > 1 ? Self.path(runFile, mode: mode) : runFile
                try write(result.trecRun(tag: "lectern-\(mode.rawValue)"), to: path)
            }
        }
        let report = EvalReport(dataset: directory, split: split, embedder: chosen.info.key, documents: stats.documents,
                                passages: stats.passages, failedDocuments: summary.failed, ingestSeconds: ingestSeconds,
                                passageDepth: depth, modes: results)
        if json {
            terminal.json(report)
            return
        }
        terminal.out("\(directory) (\(split)): \(dataset.queries.count) queries, \(stats.documents) documents, \(stats.passages) passages, \(chosen.info.key)")
        if summary.failed > 0 { terminal.out("\(summary.failed) corpus records could not be stored (named above) and count as never found") }
        terminal.out(TerminalText(String(format: "ingest %.1f s", ingestSeconds)))
        terminal.out("mode        nDCG@10  Recall@100  MRR@10  ms/query  cpu ms/query")
        for result in results {
            terminal.out(TerminalText(result.mode.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: "  %7.4f  %10.4f  %6.4f  %8.1f  %12.1f", result.ndcg10, result.recall100, result.mrr10,
                                 result.secondsPerQuery * 1000, result.cpuSecondsPerQuery * 1000)))
        }
    }

    /// `run.trec` → `run.keyword.trec`.
    static func path(_ path: String, mode: SearchMode) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
        return base + "." + mode.rawValue + (ext.isEmpty ? "" : "." + ext)
    }

    func write(_ text: String, to path: String) throws {
        try OutputFile.write(Data(text.utf8), to: path)
    }
}

extension EvalCommand: ReportsEvents {
    var eventFormat: EventFormat { events ?? .text }
}

struct DumpedPassage: Encodable {
    var corpusId: String
    var passage: Int64
    var section: [String]
    var text: String

    enum CodingKeys: String, CodingKey {
        case corpusId = "corpus_id"
        case passage, section, text
    }
}
