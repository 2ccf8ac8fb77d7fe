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

    /// A topic search: every topic holding any of the query's items, of the curriculum named
    /// `curriculum` when given, by BM25 (N, avgdl and each item's n over every topic, as FTS5
    /// counts them over the whole table).
    static func topicSearch(_ query: SearchQuery, curriculum: String?) -> PostgresKeywordSearch? {
        let items = items(query)
        guard !items.isEmpty else { return nil }
        var search = PostgresKeywordSearch(
            table: "topics",
            totals: "select count(*)::float8 as n, case when count(*) > 0 then sum(keyword_length)::float8 / count(*) else 1 end as avgdl from topics",
            items: items, itemQueries: items.map(topicPhrase),
            weight: "case p.w " + topicWeights.map { "when '\($0.label)' then \($0.weight)" }.joined(separator: " ") + " end")
        if let curriculum {
            search.parameters.append(curriculum)
            search.filters = " and curriculum_id = (select id from curricula where name = $\(PostgresKeywordSearch.firstParameter)::text)"
        }
        return search
    }
}
