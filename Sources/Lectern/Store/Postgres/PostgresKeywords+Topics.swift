import Foundation

/// A topic's keyword entry and the BM25 that ranks topics: FTS5's over `topics_fts` in the
/// SQLite library, whose four columns (title, objectives, key terms, summary) are weighted 8,
/// 1, 2, 1 there and are the tsvector's weights A, B, C and D here.
extension PostgresKeywords {
    /// The column weights of `LibraryStore.topicKeywordMatches`, by tsvector weight.
    static let topicWeights: [(label: String, weight: Double)] = [("A", 8), ("B", 1), ("C", 2), ("D", 1)]

    /// The tsvector literal of a topic and its token count across its four columns.
    static func topicVector(title: String, objectives: String, keyTerms: String, summary: String) -> (literal: String, length: Int) {
        vector(columns: zip([title, objectives, keyTerms, summary], topicWeights).map { (text: $0, weight: $1.label) })
    }

    /// A tsquery matching `stems` as one phrase within one of a topic's columns.
    static func topicPhrase(_ stems: [String]) -> String {
        phrase(stems, withinAnyOf: topicWeights.map(\.label))
    }

    /// The SQL of a topic search with its bound values: every topic holding any of the query's
    /// items, of the curriculum named `curriculum` when given, by BM25 (N, avgdl and each item's
    /// n over every topic, as FTS5 counts them over the whole table); best first, at most `limit`.
    static func topicSearch(_ query: SearchQuery, limit: Int, curriculum: String?) -> (sql: String, parameters: [String?])? {
        let items = items(query)
        guard !items.isEmpty else { return nil }
        var parameters: [String?] = [
            PostgresLibrary.textArray(items.map { $0.joined(separator: " ") }), PostgresLibrary.textArray(items.map(topicPhrase)),
            items.map(topicPhrase).joined(separator: " | "), String(limit),
        ]
        var filter = ""
        if let curriculum {
            parameters.append(curriculum)
            filter = " and curriculum_id = (select id from curricula where name = $5)"
        }
        let weight = "case p.w " + topicWeights.map { "when '\($0.label)' then \($0.weight)" }.joined(separator: " ") + " end"
        let totals = "select count(*)::float8 as n, case when count(*) > 0 then sum(keyword_length)::float8 / count(*) else 1 end as avgdl from topics"
        let sql = bm25SQL(table: "topics", totals: totals, weight: weight, filters: filter)
        return (sql, parameters)
    }
}
