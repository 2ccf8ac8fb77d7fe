import Foundation

/// What a tutoring context is asked for: a question, or a topic of a curriculum, within a budget.
public struct ContextRequest: Sendable, Equatable {
    /// The learner's question (or the subject at hand).
    public var query: String?
    /// A topic's stable id (or its first 4+ characters), as `lectern curriculum show` lists it.
    public var topicId: String?
    /// Only this curriculum's topics.
    public var curriculum: String?
    /// Tokens the context may take in a prompt.
    public var budget: Int
    /// Only these sources and document types.
    public var filter: SearchFilter

    public static let defaultBudget = 2000
    /// Less than this leaves no room for a heading and one passage.
    public static let smallestBudget = 64

    public init(query: String? = nil, topicId: String? = nil, curriculum: String? = nil,
                budget: Int = ContextRequest.defaultBudget, filter: SearchFilter = SearchFilter()) {
        self.query = query
        self.topicId = topicId
        self.curriculum = curriculum
        self.budget = budget
        self.filter = filter
    }

    /// The first problem with the request as a user would be told it, nil when it can be answered.
    public var problem: String? {
        let hasQuery = !(query ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        if !hasQuery && topicId == nil { return "give a question or a topic id" }
        if budget < Self.smallestBudget { return "the budget must be at least \(Self.smallestBudget) tokens (got \(budget))" }
        return nil
    }
}

/// Builds tutoring contexts for `lectern context` and the MCP server's `context` tool: the
/// passages that best answer a question (hybrid search), with the topic's place, objectives,
/// links and terms first when the library has curricula (the topic named, or the one that
/// best answers the question). Reads only; never calls a model.
public struct ContextBuilder: Sendable {
    let store: any LibraryBackend
    /// The warm search: the model and the vectors stay loaded between contexts.
    let session: SearchSession
    let counter: PromptTokenCounter

    public init(store: LibraryStore, session: SearchSession, counter: PromptTokenCounter = .estimate) {
        self.init(backend: store, session: session, counter: counter)
    }

    public init(library: Library, session: SearchSession, counter: PromptTokenCounter = .estimate) {
        self.init(backend: library.backend, session: session, counter: counter)
    }

    init(backend: any LibraryBackend, session: SearchSession, counter: PromptTokenCounter) {
        self.store = backend
        self.session = session
        self.counter = counter
    }

    public func build(_ request: ContextRequest) throws -> TutoringContext {
        if let problem = request.problem { throw LecternError(.invalidInput, "context", problem) }
        let query = request.query.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let packer = ContextPacker(counter: counter)
        if let topicId = request.topicId {
            return try topicContext(try topic(topicId, curriculum: request.curriculum), query: query, request: request)
        }
        guard let query else {
            throw LecternError(.invalidInput, "context", "give a question or a topic id")
        }
        if let place = try bestTopic(for: query, curriculum: request.curriculum) {
            return try topicContext(place, query: query, request: request)
        }
        let hits = try session.ranked(query, k: Self.depth(budget: request.budget), mode: .hybrid, filter: request.filter)
        return try packer.pack(query: query, topic: nil, candidateCount: hits.count,
                               candidate: { ContextPassage(try hits.hit($0), from: .search) }, budget: request.budget)
    }

    /// How many passages to rank for a budget: more than can fit (passages are at most a few
    /// hundred tokens), so a long one that does not fit leaves room for the next.
    static func depth(budget: Int) -> Int {
        min(200, max(20, budget / 60))
    }
}

extension ContextPassage {
    init(_ hit: SearchHit, from origin: ContextPassageOrigin) {
        self.init(passage: hit.passageReference, documentId: hit.documentId, title: hit.title, location: hit.location,
                  page: hit.pageStart, pageLabel: hit.pageLabel, time: hit.time ?? hit.timeStart, uri: hit.uri,
                  link: hit.link, from: origin, text: hit.text, complete: true)
    }
}
