import Foundation
import Lectern
import MCP

/// The library as the MCP server serves it: opened once, with the embedder, the searcher and
/// the token counter kept warm between calls, on either backend (a library file, or PostgreSQL).
/// An actor, so calls that arrive together take turns at the one connection. Every tool failure becomes an error result carrying the
/// one line the command line prints; nothing here writes to stdout, which is the protocol's.
actor MCPLibrary {
    let configuration: Configuration
    let library: Library
    /// What the ingest tool may read (`--allow-ingest DIR…`, `--allow-urls`); nil: no ingest tool.
    let scope: IngestScope?
    /// The warm search: the model loads on the first call that needs a query vector (a library
    /// whose model is missing still serves keyword search and resources), the vectors stay in
    /// memory and are reloaded only when an ingest has changed them.
    let session: SearchSession
    private var counter: PromptTokenCounter?

    init(configuration: Configuration, library: Library, scope: IngestScope?) {
        self.configuration = configuration
        self.library = library
        self.scope = scope
        session = LibraryServices(configuration: configuration, library: library).searchSession()
    }

    init(configuration: Configuration, store: LibraryStore, scope: IngestScope?) {
        self.init(configuration: configuration, library: Library(store), scope: scope)
    }

    func contextBuilder() -> ContextBuilder {
        if counter == nil { counter = PromptTokenCounter.make(for: configuration) }
        return ContextBuilder(library: library, session: session, counter: counter!)
    }

    /// Runs tool `name`, as the SDK carries a result (`answer` is the same answer).
    func call(_ name: String, _ arguments: [String: Value]?) -> CallTool.Result {
        do {
            return try answer(name, arguments).result()
        } catch {
            return (try? MCPToolAnswer.failure(String(describing: error)).result()) ?? CallTool.Result(isError: true)
        }
    }

    /// Runs tool `name`; any failure is an error answer with the command line's message.
    func answer(_ name: String, _ arguments: [String: Value]?) -> MCPToolAnswer {
        do {
            switch name {
            case "search": return try search(arguments)
            case "context": return try context(arguments)
            case "ingest": return try ingest(arguments)
            case "curriculum": return try curriculum(arguments)
            case "topic": return try topic(arguments)
            case "cards": return try cards(arguments)
            default:
                throw MCPArguments.problem("unknown tool '\(name)' (tools: \(MCPTools.names.joined(separator: ", ")))")
            }
        } catch {
            // A failure of a PostgreSQL server is the command line's one line too.
            if let lectern = LecternError.translating(error) as? LecternError { return MCPToolAnswer.failure(lectern.description) }
            return MCPToolAnswer.failure(String(describing: error))
        }
    }

    /// The JSON-RPC response line to `call`, made without the SDK (see `MCPToolAnswer`).
    func respond(to call: MCPToolCall) -> Data {
        let answer = answer(call.name, call.arguments)
        if let line = try? answer.response(to: call.id) { return line }
        return (try? MCPToolAnswer.failure("the result could not be written as JSON").response(to: call.id)) ?? Data()
    }

    // MARK: Tools

    struct SearchResult: Codable {
        var hits: [SearchHit]
        /// Why there are no hits, when there are none; or what the hits do not say for
        /// themselves (a quoted phrase no passage holds, and what is shown instead).
        var note: String?
    }

    func search(_ values: [String: Value]?) throws -> MCPToolAnswer {
        let arguments = try MCPArguments(tool: "search", values: values, allowed: ["query", "k", "mode", "source", "type"])
        let query = try arguments.requiredString("query")
        let k = try arguments.int("k") ?? configuration.searchLimit
        if k < 1 { throw MCPArguments.problem("k must be at least 1 (got \(k))") }
        if k > MCPTools.largestK { throw MCPArguments.problem("k must be at most \(MCPTools.largestK) (got \(k))") }
        let mode = try arguments.choice("mode", of: SearchMode.self, among: SearchMode.allCases.map(\.rawValue)) ?? .hybrid
        let filter = SearchFilter(sources: try arguments.strings("source"), types: try arguments.strings("type"))
        let outcome = try session.run(query, k: k, mode: mode, filter: filter)
        let hits = outcome.hits
        var note = outcome.notes.isEmpty ? nil : outcome.notes.joined(separator: "; ")
        if hits.isEmpty, note == nil { note = try session.emptyFilterReason(filter) ?? "no passages match '\(query)'" }
        return try MCPToolAnswer.success(SearchResult(hits: hits, note: note))
    }

    func context(_ values: [String: Value]?) throws -> MCPToolAnswer {
        let arguments = try MCPArguments(tool: "context", values: values,
                                         allowed: ["query", "topic", "curriculum", "budget", "source", "type"])
        let request = ContextRequest(query: try arguments.string("query"), topicId: try arguments.string("topic"),
                                     curriculum: try arguments.string("curriculum"),
                                     budget: try arguments.int("budget") ?? ContextRequest.defaultBudget,
                                     filter: SearchFilter(sources: try arguments.strings("source"), types: try arguments.strings("type")))
        if let problem = request.problem { throw MCPArguments.problem(problem) }
        let context = try contextBuilder().build(request)
        return try MCPToolAnswer.success(context, text: context.markdown)
    }

    struct CurriculumList: Encodable {
        var curricula: [CurriculumSummary]
    }

    /// A curriculum's units and topics, without the passages' text (the `topic` tool has it).
    struct CurriculumTree: Encodable {
        struct Unit: Encodable {
            var id: String
            var title: String
            var topics: [TopicEntry]
        }
        struct TopicEntry: Encodable {
            var id: String
            var title: String
            var studyMinutes: Int
            var objectives: [String]
            var keyTerms: [String]
            var prerequisites: [String]
            var sources: [String]
            var passages: Int
        }
        var name: String
        var title: String
        var units: [Unit]

        init(_ view: CurriculumView) {
            name = view.name
            title = view.title
            units = view.units.map { unit in
                Unit(id: unit.id, title: unit.title, topics: unit.topics.map {
                    TopicEntry(id: $0.id, title: $0.title, studyMinutes: $0.studyMinutes, objectives: $0.objectives,
                               keyTerms: $0.keyTerms, prerequisites: $0.prerequisites, sources: $0.sources, passages: $0.passages)
                })
            }
        }
    }

    /// Without a name, the library's curricula; with one, its units and topics.
    func curriculum(_ values: [String: Value]?) throws -> MCPToolAnswer {
        let arguments = try MCPArguments(tool: "curriculum", values: values, allowed: ["name"])
        guard let name = try arguments.string("name") else {
            return try MCPToolAnswer.success(CurriculumList(curricula: try Curricula.list(library)))
        }
        guard let view = try Curricula.view(named: name, in: library) else {
            throw LecternError(.invalidInput, name, "no curriculum of this name (see `lectern curriculum list`)")
        }
        return try MCPToolAnswer.success(CurriculumTree(view))
    }

    /// One topic: its place, objectives, links, key terms and summary, with its passages.
    func topic(_ values: [String: Value]?) throws -> MCPToolAnswer {
        let arguments = try MCPArguments(tool: "topic", values: values, allowed: ["id", "curriculum", "budget"])
        let request = ContextRequest(topicId: try arguments.requiredString("id"), curriculum: try arguments.string("curriculum"),
                                     budget: try arguments.int("budget") ?? ContextRequest.defaultBudget)
        if let problem = request.problem { throw MCPArguments.problem(problem) }
        let context = try contextBuilder().build(request)
        return try MCPToolAnswer.success(context, text: context.markdown)
    }

    struct CardsResult: Encodable {
        var curriculum: String
        var topic: String
        var title: String
        var cards: [CardListing]
        /// Why there are none, when there are none.
        var note: String?
    }

    /// A topic's flashcards (made by `lectern cards generate`), each citing its passage.
    func cards(_ values: [String: Value]?) throws -> MCPToolAnswer {
        let arguments = try MCPArguments(tool: "cards", values: values, allowed: ["topic", "curriculum"])
        let found = try TopicReferences(library: library).find(try arguments.requiredString("topic"), curriculum: try arguments.string("curriculum"))
        let cards = try Flashcards(library: library).list(curriculum: found.curriculum, topics: [found.id])
        let note = cards.isEmpty ? "no cards for this topic yet: `lectern cards generate \(found.curriculum)` makes them" : nil
        return try MCPToolAnswer.success(CardsResult(curriculum: found.curriculum, topic: found.id, title: found.title, cards: cards, note: note))
    }

    struct IngestResult: Codable {
        var summary: IngestSummary
        /// One line for each input that failed or warned, as `lectern ingest` prints it.
        var problems: [String]
    }

    func ingest(_ values: [String: Value]?) throws -> MCPToolAnswer {
        let arguments = try MCPArguments(tool: "ingest", values: values, allowed: ["paths"])
        guard let scope else {
            throw LecternError(.invalidInput, "ingest", "this server only reads the library: start it with `lectern mcp --allow-ingest DIR` (and --allow-urls for web sources)")
        }
        let paths = try arguments.strings("paths")
        if paths.isEmpty { throw MCPArguments.problem("paths is missing: give at least one file, folder, glob, URL or spec") }
        // A path outside the folders, or a web source without --allow-urls, refuses the whole
        // call: nothing is read. (What a folder walk meets that leads out is one problem line.)
        let refusals = paths.compactMap(scope.refusal(of:))
        if !refusals.isEmpty { throw MCPArguments.problem(refusals.map(\.description).joined(separator: "; ")) }
        try refuseWhileARunUpdates()
        let problems = ProblemLines()
        let recorder = try RunRecorder(library: library, command: "ingest", arguments: ["mcp"] + paths)
        let summary = try recorder.run { () throws -> IngestSummary in
            let services = LibraryServices(configuration: configuration, library: library, recorder: recorder)
            var ingestor = services.ingestor(embedder: try services.embedder())
            ingestor.scope = scope
            return ingestor.ingest(paths, recorder: recorder) { event in
                guard event.event == .failed || event.event == .warning else { return }
                problems.append([event.input, event.message].compactMap { $0 }.joined(separator: ": "))
            }
        }
        // A copy of the library file is then the whole library, between calls as after the server.
        if let store = try? library.sqliteStore(for: "") { store.checkpoint() }
        return try MCPToolAnswer.success(IngestResult(summary: summary, problems: problems.lines))
    }

    /// While a `lectern run` updates the library, `lectern ingest` waits for it; a tool call is
    /// refused at once instead, naming the run: waiting would hold every other call of the client.
    func refuseWhileARunUpdates() throws {
        let refuse = Cancellation()
        refuse.cancel()
        var holder: RunLock.Holder?
        do {
            try library.waitWhileWriterLocked(cancellation: refuse) { holder = $0 }
        } catch {
            throw LecternError(.invalidInput, "ingest", "a run (\(holder?.description ?? "pid unknown")) is updating this library: try again when it has finished")
        }
    }
}

/// Lines collected from ingest's events, which may come from its worker threads.
final class ProblemLines: Sendable {
    private let collected = Locked<[String]>([])

    func append(_ line: String) { collected.withLock { $0.append(line) } }
    var lines: [String] { collected.current }
}
