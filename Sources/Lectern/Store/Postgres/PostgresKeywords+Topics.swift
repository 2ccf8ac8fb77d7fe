import Foundation

/// A topic's keyword entry and the BM25 that ranks topics: FTS5's over `topics_fts` in the
/// SQLite library, whose four columns (title, objectives, key terms, summary) are weighted 8,
/// 1, 2, 1 there and are the tsvector's weights A, B, C and D here.
extension PostgresKeywords {
    /// The column weights of `LibraryStore.topicKeywordMatches`, by tsvector weight.
    static let topicWeights: [(label: String, weight: Double)] = [("A", 8), ("B", 1), ("C", 2), ("D", 1)]

    /// The tsvector literal of a topic and its token count across its four columns.
    static func topicVector(title: String, objectives: String, keyTerms: String, summary: String) -> (literal: String, length: Int) {
        var positions: [String: [String]] = [:]
        var order: [String] = []
        var position = 0
        for (text, weight) in zip([title, objectives, keyTerms, summary], topicWeights.map(\.label)) {
            for stem in PorterStemmer.stems(text) {
                position += 1
                if positions[stem] == nil { order.append(stem) }
                positions[stem, default: []].append("\(min(position, 16383))\(weight)")
            }
        }
        let literal = order.map { "\(quoted($0)):\(positions[$0]!.joined(separator: ","))" }.joined(separator: " ")
        return (literal, position)
    }

    /// A tsquery matching `stems` as one phrase within one of a topic's columns.
    static func topicPhrase(_ stems: [String]) -> String {
        guard stems.count > 1 else { return quoted(stems[0]) }
        let columns = topicWeights.map { column in "(" + stems.map { "\(quoted($0)):\(column.label)" }.joined(separator: " <-> ") + ")" }
        return "(" + columns.joined(separator: " | ") + ")"
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
        let sql = """
            with items as (select string_to_array(t.item, ' ') as stems, t.q from unnest($1::text[], $2::text[]) as t(item, q)),
            totals as (select count(*)::float8 as n, case when count(*) > 0 then sum(keyword_length)::float8 / count(*) else 1 end as avgdl
                       from topics),
            idf as (select items.stems, greatest(ln((totals.n - h.hits + 0.5) / (h.hits + 0.5)), 0) as idf
                    from items cross join totals
                    cross join lateral (select count(*)::float8 as hits from topics where keywords @@ items.q::tsquery) h),
            matched as (select id, keywords, keyword_length from topics where keywords @@ $3::tsquery\(filter))
            select m.id, sum(case when idf.idf > 0 then idf.idf else 1e-6 end
                             * (f.freq * (\(k1) + 1)) / (f.freq + \(k1) * (1 - \(b) + \(b) * m.keyword_length / totals.avgdl))) as score
            from matched m cross join totals cross join idf
            cross join lateral (
                select coalesce(sum(\(weight)), 0)::float8 as freq
                from unnest(m.keywords) u cross join lateral unnest(u.positions, u.weights) as p(pos, w)
                where u.lexeme = idf.stems[1]
                  and not exists (select 1 from generate_series(2, cardinality(idf.stems)) k
                                  where not exists (select 1 from unnest(m.keywords) u2
                                                    cross join lateral unnest(u2.positions, u2.weights) as p2(pos, w)
                                                    where u2.lexeme = idf.stems[k] and p2.pos = p.pos + k - 1 and p2.w = p.w))) f
            group by m.id
            order by score desc, m.id
            limit $4
            """
        return (sql, parameters)
    }
}
