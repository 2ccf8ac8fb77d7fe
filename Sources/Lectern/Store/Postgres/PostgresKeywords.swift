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
        var positions: [String: [String]] = [:]
        var order: [String] = []
        var position = 0
        for (stems, weight) in [(PorterStemmer.stems(text), "A"), (PorterStemmer.stems(section), "B")] {
            for stem in stems {
                position += 1
                if positions[stem] == nil { order.append(stem) }
                // tsvector keeps positions up to 16383; a passage is a few hundred tokens.
                positions[stem, default: []].append("\(min(position, 16383))\(weight)")
            }
        }
        let literal = order.map { "\(quoted($0)):\(positions[$0]!.joined(separator: ","))" }.joined(separator: " ")
        return (literal, position)
    }

    /// The query's terms, as the index holds them: each word folded and stemmed.
    static func terms(_ query: SearchQuery) -> [String] {
        query.words.flatMap(PorterStemmer.stems)
    }

    /// A tsquery matching any of `terms`.
    static func anyOf(_ terms: [String]) -> String {
        terms.map(quoted).joined(separator: " | ")
    }

    /// A lexeme quoted for a tsvector or tsquery literal.
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The BM25 of each passage holding any of `$1` (a text[] of terms; `$2` the tsquery of
    /// them), FTS5's: per term, idf = ln((N − n + ½)/(n + ½)) (1e-6 when not positive), times
    /// f·(k1+1)/(f + k1·(1 − b + b·|D|/avgdl)), f the term's count weighted by column (text 1,
    /// section 0.5), |D| the row's tokens; best first, at most `$3`. N and avgdl come from
    /// keyword_totals, each term's n from the GIN index.
    static let bm25SQL = """
        with terms as (select t.term, t.i from unnest($1::text[]) with ordinality as t(term, i)),
        totals as (select passages::float8 as n, case when passages > 0 then tokens::float8 / passages else 1 end as avgdl
                   from keyword_totals),
        idf as (select terms.i, terms.term,
                       greatest(ln((totals.n - h.hits + 0.5) / (h.hits + 0.5)), 0) as idf
                from terms cross join totals
                cross join lateral (select count(*)::float8 as hits from passages
                                    where keywords @@ quote_literal(terms.term)::tsquery) h),
        matched as (select id, keywords, keyword_length from passages where keywords @@ $2::tsquery)
        select m.id, sum(case when idf.idf > 0 then idf.idf else 1e-6 end
                         * (f.freq * (\(k1) + 1)) / (f.freq + \(k1) * (1 - \(b) + \(b) * m.keyword_length / totals.avgdl))) as score
        from matched m cross join totals cross join idf
        cross join lateral (select coalesce(sum(case w when 'A' then 1.0 when 'B' then 0.5 else 0 end), 0)::float8 as freq
                            from unnest(m.keywords) as u cross join lateral unnest(u.weights) as w
                            where u.lexeme = idf.term) f
        group by m.id
        order by score desc, m.id
        limit $3
        """
}
