import ArgumentParser
import Foundation
import Lectern

enum ContextFormat: String, ExpressibleByArgument, CaseIterable {
    case md
    case json
}

struct ContextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context",
        abstract: "What a tutor needs for a question or topic, cited and within a token budget.",
        discussion: """
            Prints Markdown for a prompt. In a library with curricula: the topic (--topic, or the \
            one that best answers the question) with its place in the course, objectives, what it \
            builds on and what comes next, key terms and summary, then the passages of the topic \
            and its prerequisites that best serve it. Without curricula: the passages that best \
            answer the question (hybrid search). Passages come most useful first, each cited with its document and page or time in the \
            recording, packed to --budget tokens without cutting a passage inside a sentence. \
            Tokens are counted by the configured model's server where it offers /tokenize \
            (llama.cpp does), else estimated as word pieces with 10% of the budget kept free.

              lectern context "how do plants make sugar?"
              lectern context "what is a derivative" --budget 800 --json
              lectern context "entropy" --source physics/ --type pdf
              lectern context --topic 3fa1c2d0 --curriculum biology --budget 1500
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The question or subject at hand.")
    var query: String?

    @Option(help: "A topic's id, as `lectern curriculum show` lists it.", completion: Completions.topics)
    var topic: String?

    @Option(help: "Only this curriculum's topics.", completion: Completions.curricula)
    var curriculum: String?

    // Unconditional: `--budget -5` is a value to refuse with a reason, not a missing one.
    @Option(parsing: .unconditional, help: "Tokens the context may take (at least \(ContextRequest.smallestBudget); default \(ContextRequest.defaultBudget)).")
    var budget: Int = ContextRequest.defaultBudget

    @Option(help: "md (Markdown for a prompt) or json (the same, structured).")
    var format: ContextFormat = .md

    @Flag(help: "Print as JSON (the same as --format json, as every other command spells it).")
    var json = false

    @Option(help: "Only this source: a path, folder, URI or document id. Repeatable.")
    var source: [String] = []

    @Option(help: "Only documents of this type (markdown, pdf, srt …). Repeatable.")
    var type: [String] = []

    var request: ContextRequest {
        ContextRequest(query: query, topicId: topic, curriculum: curriculum, budget: budget,
                       filter: SearchFilter(sources: source, types: type))
    }

    func validate() throws {
        if let problem = request.problem { throw ValidationError(problem) }
    }

    func run() throws {
        let (configuration, terminal, library) = try global.openLibraryForReading()
        let session = LibraryServices(configuration: configuration, library: library).searchSession()
        let builder = ContextBuilder(library: library, session: session, counter: PromptTokenCounter.make(for: configuration))
        let context = try builder.build(request)
        if context.passages.isEmpty, context.topic == nil {
            let filter = SearchFilter(sources: source, types: type)
            terminal.note(try session.emptyFilterReason(filter) ?? "no passages match '\(query ?? "")'")
        }
        switch json ? .json : format {
        case .json: terminal.json(context)
        case .md: terminal.outLines(context.markdown.trimmingCharacters(in: .newlines))
        }
    }
}

extension ContextCommand: SharesGlobalOptions {}
