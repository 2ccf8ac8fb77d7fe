import Foundation

/// A corpus document in a ranking, with the score of its best passage.
struct RankedDocument: Codable, Sendable, Equatable {
    var id: String
    var score: Double
}

/// One search mode's figures over a dataset's queries.
public struct ModeEvaluation: Codable, Sendable {
    public var mode: SearchMode
    var queries: Int
    /// Means over every judged query (a query that finds nothing counts 0).
    public var ndcg10: Double
    public var recall100: Double
    public var mrr10: Double
    public var secondsPerQuery: Double
    public var cpuSecondsPerQuery: Double
    var perQuery: [QueryMeasures]
    /// Each query's document ranking, in query order: what `--run-file` writes.
    var run: [(query: String, documents: [RankedDocument])]

    enum CodingKeys: String, CodingKey {
        case mode, queries
        case ndcg10 = "ndcg@10"
        case recall100 = "recall@100"
        case mrr10 = "mrr@10"
        case secondsPerQuery = "seconds_per_query"
        case cpuSecondsPerQuery = "cpu_seconds_per_query"
        case perQuery = "per_query"
    }

    init(mode: SearchMode, perQuery: [QueryMeasures], run: [(query: String, documents: [RankedDocument])]) {
        self.mode = mode
        self.perQuery = perQuery
        self.run = run
        queries = perQuery.count
        let count = Double(max(perQuery.count, 1))
        ndcg10 = perQuery.reduce(0) { $0 + $1.ndcg10 } / count
        recall100 = perQuery.reduce(0) { $0 + $1.recall100 } / count
        mrr10 = perQuery.reduce(0) { $0 + $1.mrr10 } / count
        secondsPerQuery = perQuery.reduce(0) { $0 + $1.seconds } / count
        cpuSecondsPerQuery = perQuery.reduce(0) { $0 + $1.cpuSeconds } / count
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(mode: try container.decode(SearchMode.self, forKey: .mode),
                  perQuery: try container.decode([QueryMeasures].self, forKey: .perQuery), run: [])
    }

    /// The run in TREC format, `qid Q0 docid rank score tag` a line, as trec_eval and
    /// pytrec_eval read it. Scores strictly fall with rank, even as 32-bit floats (see
    /// `RetrievalEvaluation.rank`), so a tool that re-sorts by score keeps Lectern's order.
    public func trecRun(tag: String) -> String {
        var out = ""
        for (query, documents) in run {
            for (index, document) in documents.enumerated() {
                out += "\(query) Q0 \(document.id) \(index + 1) \(document.score) \(tag)\n"
            }
        }
        return out
    }
}

/// Runs a dataset's queries against an `EvalLibrary` and measures the rankings: passages are
/// searched as `lectern search` searches them, and each corpus document is ranked by its best
/// passage (the first time it appears).
public struct RetrievalEvaluation: Sendable {
    var library: EvalLibrary
    var searcher: Searcher
    /// Passages asked of the search per query: deep enough that 100 documents are usually filled.
    public var passageDepth = 300
    /// Documents kept per query (Recall@100 needs 100).
    var documentDepth = 100

    public init(library: EvalLibrary, embedder: any Embedder) {
        self.library = library
        searcher = Searcher(library: library.library, embedder: embedder)
        searcher.links = false
    }

    /// The corpus documents `query` finds, best first, at most `documentDepth`.
    func rank(_ query: String, mode: SearchMode) throws -> [RankedDocument] {
        let hits: [SearchHit]
        do {
            hits = try searcher.search(query, k: passageDepth, mode: mode)
        } catch let error as LecternError where error.code == .invalidInput {
            return []   // a query with no words to search for finds nothing, and scores 0
        }
        var seen = Set<String>()
        var ranking: [RankedDocument] = []
        for hit in hits {
            guard let path = hit.path, let id = library.corpusIds[path], seen.insert(id).inserted else { continue }
            // Hits come best first, so a document's first passage is its best. trec_eval keeps
            // scores as 32-bit floats and breaks ties by document id, so scores that are equal
            // there are nudged down by one float step: the order survives tools that sort by score.
            var score = hit.score
            if let last = ranking.last, Float(score) >= Float(last.score) { score = Double(Float(last.score).nextDown) }
            ranking.append(RankedDocument(id: id, score: score))
            if ranking.count == documentDepth { break }
        }
        return ranking
    }

    /// Every query of `dataset` in `mode`; `progress` hears (done, total) after each query.
    public func evaluate(_ dataset: BEIRDataset, mode: SearchMode, progress: (Int, Int) -> Void = { _, _ in }) throws -> ModeEvaluation {
        var measures: [QueryMeasures] = []
        var run: [(query: String, documents: [RankedDocument])] = []
        for (index, query) in dataset.queries.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = Self.cpuSeconds()
            let ranking = try rank(query.text, mode: mode)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            measures.append(QueryMeasures(query: query.id, ranking: ranking.map(\.id), judgements: dataset.qrels.judgements[query.id] ?? [:],
                                          seconds: seconds, cpuSeconds: Self.cpuSeconds() - cpuStart))
            run.append((query.id, ranking))
            progress(index + 1, dataset.queries.count)
        }
        return ModeEvaluation(mode: mode, perQuery: measures, run: run)
    }

    /// User and system time of the whole process (queries run one at a time).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// What `lectern eval --json` prints.
public struct EvalReport: Codable, Sendable {
    var dataset: String
    var split: String
    var embedder: String
    var documents: Int
    var passages: Int
    /// Records that could not be stored (no text): they can never be found.
    var failedDocuments: Int
    var ingestSeconds: Double
    var passageDepth: Int
    var gain: String = "linear"
    var modes: [ModeEvaluation]

    public init(dataset: String, split: String, embedder: String, documents: Int, passages: Int, failedDocuments: Int,
                ingestSeconds: Double, passageDepth: Int, modes: [ModeEvaluation]) {
        self.dataset = dataset
        self.split = split
        self.embedder = embedder
        self.documents = documents
        self.passages = passages
        self.failedDocuments = failedDocuments
        self.ingestSeconds = ingestSeconds
        self.passageDepth = passageDepth
        self.modes = modes
    }

    enum CodingKeys: String, CodingKey {
        case dataset, split, embedder, documents, passages
        case failedDocuments = "failed_documents"
        case ingestSeconds = "ingest_seconds"
        case passageDepth = "passage_depth"
        case gain, modes
    }
}
