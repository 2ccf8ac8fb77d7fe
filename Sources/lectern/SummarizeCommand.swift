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

    @Argument(help: "Documents or sources (path, folder, URI, short id or quoted glob); all documents when none is given.", completion: .file())
    var sources: [String] = []

    @Flag(name: .customLong("no-cache"), help: "Ask the model again even when the library holds its answer.")
    var noCache = false

    @Flag(help: "Print the summaries as JSON.")
    var json = false

    @Option(name: .customLong("paragraphs"), help: ArgumentHelp(
        "Summarise the texts of a JSON-lines file instead ({\"title\", \"paragraphs\": [...], \"words\": N} a line; - for stdin) with the offline method a topic's summary is made by, printing one JSON summary a line; nothing is stored (bench/summary_rouge.sh).",
        valueName: "FILE"))
    var paragraphsFile: String?

    struct Report: Encodable {
        var run: Int64
        var provider: String
        var model: String
        var documents: [SummarizedDocument]
        var failed: Int
        var counts: [String: Int]
    }

    func run() throws {
        if let paragraphsFile {
            try summarizeTexts(paragraphsFile)
            return
        }
        let configuration = try global.configuration(flags: llm.flags)
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        let recorder = try global.startRun(library, command: "summarize")
        let batch = try terminal.withSpinner("summarising") { try recorder.run { () throws -> SummaryBatch in
            let services = LibraryServices(configuration: configuration, library: library, recorder: recorder)
            let writer = try services.documentSummaries(useCache: !noCache)
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

extension SummarizeCommand {
    /// One text to summarise, as `--paragraphs` reads it.
    struct TextRequest: Decodable {
        var title: String?
        var paragraphs: [String]
        /// Words wanted: sentences are chosen until they reach it; absent, 3–5 sentences.
        var words: Int?
    }

    struct TextSummary: Encodable {
        var summary: String
        var error: String?
    }

    /// The offline topic summariser on given texts, one JSON line in and one out: a line that
    /// is not a request, or a text with no sentence, gets an empty summary and its reason.
    func summarizeTexts(_ path: String) throws {
        let terminal = global.terminal()
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else {
                throw LecternError(.unreadable, path, "cannot read the file of texts to summarise")
            }
            data = read
        }
        let summarizer = ExtractiveSummarizer()
        for (number, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.allSatisfy({ $0 == 32 || $0 == 13 }) {
            var answer = TextSummary(summary: "")
            do {
                let request = try JSONDecoder().decode(TextRequest.self, from: Data(line))
                answer.summary = try summarizer.summarizeText(title: request.title ?? "", paragraphs: request.paragraphs, words: request.words)
            } catch let error as LecternError {
                answer.error = error.reason
            } catch {
                answer.error = "line \(number + 1) is not a request: \(error.localizedDescription)"
            }
            terminal.jsonLine(answer)
        }
    }
}

extension SummarizeCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
