import Foundation

/// How long one search spent embedding its query, and in all.
public struct SearchTimings: Sendable, Codable, Equatable {
    /// Seconds spent making the query's vector (0 in keyword mode).
    public var embedding: Double = 0
    /// Seconds of the whole search, embedding included.
    public var total: Double = 0

    public init() {}
}

/// One search's hits, with what a user should be told about them and how long it took.
public struct SearchOutcome: Sendable {
    public var hits: [SearchHit]
    /// What the hits do not say for themselves, one line each: a quoted phrase no passage holds
    /// (and what is shown instead), an exclusion that left nothing, hits under the minimum score.
    public var notes: [String]
    public var timings: SearchTimings
}

/// A long-lived search over one library, for callers that ask many questions (`lectern search
/// --stdin`, the MCP server, `lectern run`): the embedding model loads once, on the first
/// question that needs a query vector, and the library's compact vectors stay in memory,
/// reloaded only when an ingest (in any process) has changed them. Safe to call from several
/// threads at once.
public final class SearchSession: Sendable {
    let searcher: Searcher

    /// A session over `store` with the library's own embedder, made when first needed.
    public init(store: LibraryStore, configuration: Configuration) {
        searcher = Searcher(store: store, configuration: configuration)
    }

    /// A session over `library` (either backend) with its own embedder, made when first needed.
    public init(library: Library, configuration: Configuration) {
        searcher = Searcher(library: library, configuration: configuration)
    }

    /// A session with a given embedder (which must be the library's).
    public init(store: LibraryStore, embedder: any Embedder) {
        searcher = Searcher(store: store, embedder: embedder)
    }

    init(searcher: Searcher) {
        self.searcher = searcher
    }

    /// This session for one request that asks its question more than once (a tutoring
    /// context): each question is embedded once for the request (`QuestionVectors`); the
    /// model and the library's vectors are this session's, and the request's scans read the
    /// library alike (a session's first request streams them all: `VectorCache`).
    func forOneRequest() -> SearchSession {
        var searcher = self.searcher
        let shared = self.searcher.queryEmbedder
        searcher.queryEmbedder = QueryEmbedder(making: { QuestionVectors(try shared.embedder()) })
        searcher.request = SearchRequest()
        return SearchSession(searcher: searcher)
    }

    /// The best `k` passages for `query`, as `lectern search` ranks them.
    public func search(_ query: String, k: Int = 10, mode: SearchMode = .hybrid, filter: SearchFilter = SearchFilter()) throws -> [SearchHit] {
        try timedSearch(query, k: k, mode: mode, filter: filter).hits
    }

    /// `search`, with how long the query's embedding and the whole search took.
    public func timedSearch(_ query: String, k: Int = 10, mode: SearchMode = .hybrid, filter: SearchFilter = SearchFilter())
        throws -> (hits: [SearchHit], timings: SearchTimings) {
        let started = DispatchTime.now()
        var timings = SearchTimings()
        let hits = try searcher.search(query, k: k, mode: mode, filter: filter, timings: &timings)
        timings.total = Searcher.seconds(since: started)
        return (hits, timings)
    }

    /// The best `k` passages for `query`, ranked as `search` ranks them, each read as a hit
    /// only when asked for (`RankedHits`).
    public func ranked(_ query: String, k: Int = 10, mode: SearchMode = .hybrid, filter: SearchFilter = SearchFilter()) throws -> RankedHits {
        var timings = SearchTimings()
        var notes: [String] = []
        let ranking = try searcher.rank(query, k: k, mode: mode, filter: filter, timings: &timings, notes: &notes)
        return RankedHits(searcher: searcher, ranking: ranking)
    }

    /// The best `k` passages for `query` scoring at least `minimumScore`, with the notes a
    /// user should read beside them.
    public func run(_ query: String, k: Int = 10, mode: SearchMode = .hybrid, filter: SearchFilter = SearchFilter(),
                    minimumScore: Double? = nil) throws -> SearchOutcome {
        let started = DispatchTime.now()
        var timings = SearchTimings()
        var notes: [String] = []
        var hits = try searcher.search(query, k: k, mode: mode, filter: filter, timings: &timings, notes: &notes)
        if let minimumScore, let best = hits.first, best.score < minimumScore || hits.last!.score < minimumScore {
            let kept = hits.filter { $0.score >= minimumScore }
            if kept.isEmpty {
                notes.append(String(format: "no hit scores %.2f or more (--min-score); the best scores %.4f", minimumScore, best.score))
            }
            hits = kept
        }
        timings.total = Searcher.seconds(since: started)
        return SearchOutcome(hits: hits, notes: notes, timings: timings)
    }

    /// Why `filter` leaves no document to search (see `Searcher.emptyFilterReason`).
    public func emptyFilterReason(_ filter: SearchFilter) throws -> String? {
        try searcher.emptyFilterReason(filter)
    }

    /// Loads now what `mode` will need (the model, the vectors), so that the first question
    /// is as quick as the next ones.
    public func warm(for mode: SearchMode = .hybrid) throws {
        guard mode != .keyword else { return }
        let embedder = try searcher.queryEmbedder.embedder()
        // One nearest-passage search: a library read into the process loads its vectors.
        _ = try searcher.nearest(to: try embedder.embed("warm"), k: 1, embedder: embedder.info)
    }
}
