import Foundation

/// The ranking measures of `lectern eval`, computed as trec_eval (and so `pytrec_eval`)
/// computes them, so that figures can be compared with published ones.
enum RetrievalMetrics {
    /// nDCG@k with trec_eval's LINEAR gain (a document of grade g gains g, not 2^g − 1), discount
    /// log2(rank + 1), and the ideal ranking built from every judged document of the query.
    static func ndcg(_ ranking: [String], judgements: [String: Int], depth: Int = 10) -> Double {
        var dcg = 0.0
        for (index, id) in ranking.prefix(depth).enumerated() {
            let grade = judgements[id] ?? 0
            if grade > 0 { dcg += Double(grade) / log2(Double(index + 2)) }
        }
        let ideal = judgements.values.filter { $0 > 0 }.sorted(by: >).prefix(depth).enumerated()
            .reduce(0.0) { $0 + Double($1.element) / log2(Double($1.offset + 2)) }
        return ideal > 0 ? dcg / ideal : 0
    }

    /// The share of the relevant documents (grade ≥ 1) found in the first `depth`.
    static func recall(_ ranking: [String], judgements: [String: Int], depth: Int = 100) -> Double {
        let relevant = judgements.values.filter { $0 > 0 }.count
        guard relevant > 0 else { return 0 }
        let found = ranking.prefix(depth).filter { (judgements[$0] ?? 0) > 0 }.count
        return Double(found) / Double(relevant)
    }

    /// 1 / the rank of the first relevant document within the first `depth`, else 0.
    static func reciprocalRank(_ ranking: [String], judgements: [String: Int], depth: Int = 10) -> Double {
        guard let index = ranking.prefix(depth).firstIndex(where: { (judgements[$0] ?? 0) > 0 }) else { return 0 }
        return 1 / Double(index + 1)
    }
}

/// One query's measures in one mode.
struct QueryMeasures: Codable, Sendable, Equatable {
    var query: String
    var ndcg10: Double
    var recall100: Double
    var mrr10: Double
    /// Wall time of the search, in seconds.
    var seconds: Double
    /// CPU time (user + system, every thread) of the search: steadier than wall time on a shared machine.
    var cpuSeconds: Double
    /// How many documents the ranking holds (at most the evaluation depth).
    var retrieved: Int

    init(query: String, ranking: [String], judgements: [String: Int], seconds: Double, cpuSeconds: Double = 0) {
        self.query = query
        ndcg10 = RetrievalMetrics.ndcg(ranking, judgements: judgements, depth: 10)
        recall100 = RetrievalMetrics.recall(ranking, judgements: judgements, depth: 100)
        mrr10 = RetrievalMetrics.reciprocalRank(ranking, judgements: judgements, depth: 10)
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        retrieved = ranking.count
    }

    enum CodingKeys: String, CodingKey {
        case query
        case ndcg10 = "ndcg@10"
        case recall100 = "recall@100"
        case mrr10 = "mrr@10"
        case seconds
        case cpuSeconds = "cpu_seconds"
        case retrieved
    }
}
