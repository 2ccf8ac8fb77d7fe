import Foundation

/// A BM25 keyword search over `table` (passages, topics) as a PostgreSQL library runs it, in
/// two statements: each item's n (the rows holding it, from the GIN index) with N and avgdl,
/// then the ranking of the rows holding any item, their scores computed in SQL from each row's
/// tsvector (`sql`) with the idfs of the first. What a query costs is the rows it ranks, so
/// items that cannot change the top `limit` are left out of the match (`leftOut`), as
/// MaxScore does, and the answer is checked: when the rows found fall short of the bound, the
/// query is ranked whole. The ranking is FTS5's bm25() either way.
struct PostgresKeywordSearch {
    var table: String
    /// SQL of one row: `n` (rows) and `avgdl` (their mean token count).
    var totals: String
    /// Each item's stems: a word's, or a quoted phrase's.
    var items: [[String]]
    /// Each item's tsquery.
    var itemQueries: [String]
    /// The weight of an occurrence: an SQL expression of its weight label `p.w`.
    var weight: String
    /// `and …` narrowing the rows ranked, its values bound from `$firstParameter` on.
    var filters = ""
    /// The values `weight` and `filters` bind, `$firstParameter` onwards.
    var parameters: [String?] = []

    /// `$1` the items (stems joined by spaces), `$2` their idfs, `$3` the tsquery of the items
    /// matched, `$4` the limit, `$5` avgdl; the caller's from `$6`.
    static let firstParameter = 6

    /// The statement of N, avgdl and each item's n (`$1`: the items' tsqueries), as
    /// `{n1,n2,…}`.
    var countsSQL: String {
        """
        select totals.n, totals.avgdl,
               array(select (select count(*) from \(table) where keywords @@ t.q::tsquery)
                     from unnest($1::text[]) with ordinality as t(q, i) order by t.i)::text
        from (\(totals)) totals
        """
    }

    /// The BM25 of each row holding any of the items `$3` matches (and `filters`), FTS5's: per
    /// item, its idf (`$2`) times f·(k1+1)/(f + k1·(1 − b + b·|D|/avgdl)), f the item's
    /// occurrences (a phrase's: its first stem's positions followed by the others in the same
    /// column) weighted by column, |D| the row's tokens; best first, at most `$4`.
    ///
    /// Each row's tsvector is unnested once, into the positions of the query's stems alone
    /// (`occurrences`), which every item then reads (unnested once per item, the same scores
    /// took 2-4 times as long at 10k padded passages); the idfs come counted (`countsSQL`),
    /// which is what tells the items to leave out.
    var sql: String {
        let k1 = PostgresKeywords.k1, b = PostgresKeywords.b
        return """
            with items as (select t.i as position, string_to_array(t.stems, ' ') as stems, t.idf
                           from unnest($1::text[], $2::float8[]) with ordinality as t(stems, idf, i)),
            query_stems as materialized (select array_agg(distinct s) as stems from items cross join lateral unnest(items.stems) s),
            matched as (select id, keywords, keyword_length from \(table) where keywords @@ $3::tsquery\(filters))
            select m.id, coalesce(s.score, 0) as score
            from matched m cross join query_stems qs
            cross join lateral (
                with occurrences as materialized (
                    select u.lexeme, p.pos, p.w
                    from unnest(m.keywords) u cross join lateral unnest(u.positions, u.weights) as p(pos, w)
                    where u.lexeme = any(qs.stems))
                select sum(f.idf * (f.freq * (\(k1) + 1)) / (f.freq + \(k1) * (1 - \(b) + \(b) * m.keyword_length / $5::float8))
                           order by f.position) as score
                from (select items.position, items.idf, sum(\(weight))::float8 as freq
                      from items join occurrences p on p.lexeme = items.stems[1]
                      where cardinality(items.stems) = 1
                         or not exists (select 1 from generate_series(2, cardinality(items.stems)) k
                                        where not exists (select 1 from occurrences o
                                                          where o.lexeme = items.stems[k] and o.pos = p.pos + k - 1 and o.w = p.w))
                      group by items.position, items.idf) f
            ) s
            order by score desc, m.id
            limit $4
            """
    }

    /// FTS5's idf of an item `holding` of `rows` rows hold: ln((N − n + ½)/(n + ½)), and 10⁻⁶
    /// where that is not positive (an item more than half the rows hold).
    static func idf(holding: Double, of rows: Double) -> Double {
        let idf = log((rows - holding + 0.5) / (holding + 0.5))
        return idf > 0 ? idf : 1e-6
    }

    /// The most an item of `idf` adds to any row's score: f·(k1+1)/(f + K) stays under k1+1.
    static func bound(_ idf: Double) -> Double {
        idf * (PostgresKeywords.k1 + 1)
    }

    /// The items (by index) to leave out of the match: the commonest, as long as together they
    /// could add less to a row than the rarest item scores in a row of average length holding it
    /// once (its idf), so that the rows holding the others are likely to outscore any row that
    /// holds only these. At least the rarest item stays. Most queries leave out none; one with a
    /// word most rows hold ranks a few rows instead of most of the library.
    static func leftOut(idfs: [Double]) -> [Int] {
        guard idfs.count > 1, let rarest = idfs.max() else { return [] }
        let commonestFirst = idfs.indices.sorted { idfs[$0] != idfs[$1] ? idfs[$0] < idfs[$1] : $0 < $1 }
        var left: [Int] = []
        var total = 0.0
        for index in commonestFirst.dropLast() {
            guard total + bound(idfs[index]) < rarest else { break }
            total += bound(idfs[index])
            left.append(index)
        }
        return left
    }
}
