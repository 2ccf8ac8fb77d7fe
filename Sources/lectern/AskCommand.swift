import ArgumentParser
import Foundation
import Lectern

struct AskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Answer a question from the library, citing the passages it comes from.",
        discussion: """
            Hybrid search finds the passages; the configured language model answers from them \
            alone, citing them as [1], [2] … (title, page or time). On a terminal the answer \
            appears as the model writes it. Without a model, the best passages are printed.

              lectern ask "why does glycolysis not need oxygen?"
              lectern ask "what is the chain rule" -k 5 --json
              lectern ask "what is osmosis" --provider ollama --model llama3.2
            """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup(title: "Language model") var llm: LLMOptions

    @Argument(help: "The question.")
    var question: String

    @Option(name: .short, help: "How many passages to retrieve.")
    var k: Int = 8

    @Option(help: "Only this source: a path, folder, URI or document id. Repeatable.")
    var source: [String] = []

    @Flag(name: .customLong("no-cache"), help: "Ask the model again even when the library holds its answer.")
    var noCache = false

    @Flag(help: "Print the answer and passages as JSON.")
    var json = false

    func validate() throws {
        if k < 1 { throw ValidationError("-k must be at least 1") }
        if question.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the question is empty") }
    }

    func run() throws {
        let configuration = try global.configuration(flags: llm.flags)
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        // A run is recorded when a model is asked (its tokens and cost); searching alone is not.
        var recorder: RunRecorder?
        var model: (any LanguageModel)?
        if try LanguageModelCatalog.make(configuration.llm, http: configuration.http) != nil {
            let run = try global.startRun(library, command: "ask")
            recorder = run
            model = try LibraryServices(configuration: configuration, library: library, recorder: run).languageModel(useCache: !noCache)
        }
        // The embedder is made inside the recorded run: a remote one that is down leaves the reason.
        // On a terminal the answer is shown as it is written; a script gets it whole.
        let streams = !json && terminal.stdoutIsTTY
        var streamed = false
        let ask = { () throws -> Answer in
            let embedder = try EmbedderCatalog.resolve(library: library, configuration: configuration)
            let answerer = Answerer(searcher: Searcher(library: library, embedder: embedder), languageModel: model,
                                    maxTokens: configuration.llm.maxTokens, temperature: configuration.llm.temperature,
                                    extractive: configuration.llm.isExtractive)
            let show: ((String) -> Void)? = streams ? { piece in
                streamed = true
                terminal.outPiece(piece)
            } : nil
            return try answerer.ask(question, k: k, filter: SearchFilter(sources: source), onText: show)
        }
        // Without a model, the best passages as `search` shows them, and what would give an answer.
        if model == nil && !json {
            let where_ = Configuration.userConfigPath(environment: ProcessInfo.processInfo.environment)
            try showPassages(configuration, library, terminal, because: configuration.llm.isExtractive
                ? "llm.provider is extractive, so there is no answer to write"
                : "no language model is configured, so there is no answer: set [llm] provider and model in \(DisplayPath.of(where_)) (or give --provider and --model)")
            return
        }
        let answer: Answer
        do {
            answer = try recorder.map { recorder in
                try recorder.run {
                    let answer = try ask()
                    recorder.count("questions")
                    return answer
                }
            } ?? ask()
        } catch let failure as LecternError where !json && !streamed && Self.unreachable.contains(failure.code) {
            // A model that cannot be reached (down, a wrong key, a timeout): still the passages.
            let name = [configuration.llm.provider, configuration.llm.model].compactMap { $0 }.joined(separator: "/")
            try showPassages(configuration, library, terminal, because: "the model \(name) could not answer (\(failure.description))")
            return
        }
        if json {
            terminal.json(answer)
            return
        }
        if let text = answer.answer {
            if streamed {
                terminal.outPiece("\n")
            } else {
                terminal.outLines(text)
            }
            terminal.out("")
            let shown = answer.cited.isEmpty ? answer.passages : answer.passages.filter { answer.cited.contains($0.number) }
            for citation in shown {
                terminal.out("[\(citation.number)] \(terminal.bold(citation.title)) — \(citation.location)")
            }
            if let counts = recorder?.snapshot, let usage = UsageLine.make(counts) {
                terminal.aside("\(answer.provider ?? "")/\(answer.model ?? ""): \(usage)")
            }
            if answer.truncated {
                terminal.note("the answer was cut off at llm.max_tokens (\(configuration.llm.maxTokens) tokens): raise it to read the rest")
            }
            return
        }
        if let note = answer.note { terminal.note(note) }
        for citation in answer.passages {
            terminal.out("[\(citation.number)] \(terminal.bold(citation.title)) — \(citation.location)")
            terminal.out("    \(Self.excerpt(citation.text))")
            terminal.out("")
        }
    }

    /// Errors of reaching the model, after which the passages are still worth showing.
    static let unreachable: Set<LecternError.Code> = [.network, .http, .languageModel, .modelAnswer]

    /// The best passages for the question as `search` prints them, after one note that says why
    /// there is no answer; exits 1 (as `search`) when no passage matches.
    func showPassages(_ configuration: Configuration, _ library: Library, _ terminal: Terminal, because reason: String) throws {
        let session = LibraryServices(configuration: configuration, library: library).searchSession()
        let outcome = try session.run(question, k: k, mode: .hybrid, filter: SearchFilter(sources: source))
        terminal.note(reason)
        for note in outcome.notes { terminal.note(note) }
        guard !outcome.hits.isEmpty else {
            terminal.note("no passages match '\(question)'")
            throw ExitCode(1)
        }
        HitRendering.print(outcome.hits, terminal)
    }

    static func excerpt(_ text: String, limit: Int = 400) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}

extension AskCommand: SharesGlobalOptions {}
