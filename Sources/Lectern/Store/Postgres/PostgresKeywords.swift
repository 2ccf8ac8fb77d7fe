import Foundation

/// A passage's keyword index entry in PostgreSQL, and the BM25 that ranks by it. PostgreSQL's
/// own text search configurations fold and stem differently from the SQLite library's FTS5
/// porter tokenizer (`english` drops stop words, `simple` does not stem), so the words are
/// folded and stemmed by Lectern (`PorterStemmer`, which follows FTS5's porter) and stored as a
/// ready-made tsvector; the ranking is FTS5's bm25() over the same counts, not `ts_rank`.
enum PostgresKeywords {
    /// BM25's constants, FTS5's.
    static let k1 = 1.2
    static let b = 0.75

    /// The tsvector literal of a passage (`text` positions weighted A, then `section`'s
    /// weighted B) and its token count across both, FTS5's row size.
    static func vector(text: String, section: String) -> (literal: String, length: Int) {
        vector(columns: [(text, "A"), (section, "B")])
    }

    /// The tsvector literal of `columns`' stems, each column's positions under its weight
    /// label, numbered on across the columns, and the token count across them.
    static func vector(columns: [(text: String, weight: String)]) -> (literal: String, length: Int) {
        var positions: [String: [String]] = [:]
        var order: [String] = []
        var position = 0
        for column in columns {
            for stem in PorterStemmer.stems(column.text) {
                position += 1
                if positions[stem] == nil { order.append(stem) }
                // tsvector keeps positions up to 16383; a passage is a few hundred tokens.
                positions[stem, default: []].append("\(min(position, 16383))\(column.weight)")
            }
        }
        let literal = order.map { "\(quoted($0)):\(positions[$0]!.joined(separator: ","))" }.joined(separator: " ")
        return (literal, position)
    }

    /// The query's ranked items as FTS5 reads the SQLite library's query (each word, and each
    /// quoted phrase, one phrase of its stems: a word that folds into several stems, `e-mail`,
    /// is a phrase there too); empty items dropped.
    static func items(_ query: SearchQuery) -> [[String]] {
        (query.words.map { [$0] } + query.phrases).map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
    }

    /// The query's terms, as the index holds them: each word folded and stemmed.
    static func terms(_ query: SearchQuery) -> [String] {
        query.words.flatMap(PorterStemmer.stems)
    }

    /// A tsquery matching any of `terms`.
    static func anyOf(_ terms: [String]) -> String {
        terms.map(quoted).joined(separator: " | ")
    }

    /// A tsquery matching `stems` as one phrase: consecutive, within one column (as FTS5's
    /// phrases match), so within the text's positions (A) or the section's (B).
    static func phrase(_ stems: [String]) -> String {
        phrase(stems, withinAnyOf: ["A", "B"])
    }

    /// A tsquery matching `stems` as one phrase within one of the columns weighted `columns`.
    static func phrase(_ stems: [String], withinAnyOf columns: [String]) -> String {
        guard stems.count > 1 else { return quoted(stems[0]) }
        let each = columns.map { weight in "(" + stems.map { "\(quoted($0)):\(weight)" }.joined(separator: " <-> ") + ")" }
        return "(" + each.joined(separator: " | ") + ")"
    }

    /// A lexeme quoted for a tsvector or tsquery literal.
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The SQL of a keyword search with its bound values: the BM25 of each passage holding any
    /// of the query's items (`bm25SQL`), only passages holding every phrase and no exclusion,
    /// of `documents` and among `passages` when given; best first, at most `limit`.
    static func search(_ query: SearchQuery, limit: Int, documents: Set<Int64>?, passages: Set<Int64>?,
                       weights: LibraryStore.KeywordWeights) -> (sql: String, parameters: [String?])? {
        let items = items(query)
        guard !items.isEmpty else { return nil }
        var parameters: [String?] = [
            PostgresLibrary.textArray(items.map { $0.joined(separator: " ") }), PostgresLibrary.textArray(items.map(phrase)),
            items.map(phrase).joined(separator: " | "), String(limit), String(weights.text), String(weights.section),
        ]
        var filters = ""
        func bind(_ value: String, as type: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)::\(type)"
        }
        let phrases = query.phrases.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
        if !phrases.isEmpty {
            filters += " and keywords @@ " + bind(phrases.map(phrase).joined(separator: " & "), as: "tsquery")
        }
        let exclusions = query.exclusions.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
        if !exclusions.isEmpty {
            filters += " and not keywords @@ " + bind(exclusions.map(phrase).joined(separator: " | "), as: "tsquery")
        }
        if let documents { filters += " and document_id = any(" + bind(PostgresLibrary.bigintArray(documents), as: "bigint[]") + ")" }
        if let passages { filters += " and id = any(" + bind(PostgresLibrary.bigintArray(passages), as: "bigint[]") + ")" }
        let totals = "select passages::float8 as n, case when passages > 0 then tokens::float8 / passages else 1 end as avgdl from keyword_totals"
        return (bm25SQL(table: "passages", totals: totals, weight: "case p.w when 'A' then $5::float8 else $6::float8 end", filters: filters),
                parameters)
    }

    /// The BM25 of each row of `table` (passages, topics) holding any of the items `$1` (a
    /// text[], each item its stems joined by spaces; `$2` their tsqueries, `$3` any of them),
    /// FTS5's: per item, idf = ln((N − n + ½)/(n + ½)) (1e-6 when not positive), times
    /// f·(k1+1)/(f + k1·(1 − b + b·|D|/avgdl)), f the item's occurrences (a phrase's: its first
    /// stem's positions followed by the others in the same column) weighted by column
    /// (`weight`, an expression of the position's weight label `p.w`), |D| the row's tokens;
    /// `filters` (`and …`) narrow the rows ranked; best first, at most `$4`. N and avgdl come
    /// from the query `totals` (columns `n`, `avgdl`), each item's n from the GIN index.
    static func bm25SQL(table: String, totals: String, weight: String, filters: String) -> String {
        """
        with items as (select string_to_array(t.item, ' ') as stems, t.q from unnest($1::text[], $2::text[]) as t(item, q)),
        totals as (\(totals)),
        idf as (select items.stems, greatest(ln((totals.n - h.hits + 0.5) / (h.hits + 0.5)), 0) as idf
                from items cross join totals
                cross join lateral (select count(*)::float8 as hits from \(table) where keywords @@ items.q::tsquery) h),
        matched as (select id, keywords, keyword_length from \(table) where keywords @@ $3::tsquery\(filters))
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
    }
}
