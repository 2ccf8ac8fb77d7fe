import Foundation
import GRDB

extension LibraryStore {
    /// BM25 weights of the FTS columns: the passage's text, and its section path.
    struct KeywordWeights: Sendable, Equatable {
        var text = 1.0
        var section = 0.5
    }

    /// Passages that hold any of the query's words or phrases, every one of its phrases and none
    /// of its exclusions, best BM25 first with their BM25 score (higher is better), at most
    /// `limit`; only passages of `documents` when given. On a large library the words most
    /// passages hold may be left out of the match (`KeywordEvaluation`).
    func keywordMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>? = nil, passages: Set<Int64>? = nil,
                        weights: KeywordWeights = KeywordWeights(), evaluation: KeywordEvaluation = KeywordEvaluation()) throws
        -> [(id: Int64, score: Double)] {
        if evaluation.postings, let ranked = try postingsMatches(query, limit: limit, documents: documents, passages: passages, weights: weights) {
            return ranked
        }
        let common = try commonWords(query, evaluation: evaluation)
        guard !common.isEmpty else {
            return try rankedMatches(query, limit: limit, documents: documents, passages: passages, weights: weights)
        }
        var rarer = query
        rarer.words = query.words.indices.filter { !common.contains($0) }.map { query.words[$0] }
        var found = try rankedMatches(rarer, limit: limit, documents: documents, passages: passages, weights: weights)
        guard found.count < limit else { return found }
        // The rarer words hold fewer passages than asked for: every one of those is here, and
        // passages holding only the common words follow, in library order, with their own BM25
        // (which is their whole score: they hold none of the rarer words).
        var commoner = query
        commoner.words = common.sorted().map { query.words[$0] }
        found += try rankedMatches(commoner, limit: limit - found.count, documents: documents, passages: passages, weights: weights,
                                   skipping: found.map(\.id), inLibraryOrder: true)
        return found.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
    }

    /// `keywordMatches` ranked from the keyword postings (`KeywordPostings`): every word, exactly
    /// as FTS5's bm25() ranks it, whatever share of the library holds it. Nil where the postings
    /// cannot rank the query: a quoted phrase or a word of more than one token (FTS5 matches them
    /// by position, which the postings do not keep).
    func postingsMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>?, passages: Set<Int64>?,
                         weights: KeywordWeights) throws -> [(id: Int64, score: Double)]? {
        let ranked = query.words.map { [$0] } + query.phrases
        guard !ranked.isEmpty, ranked.count <= 64 else { return nil }
        return try read { db -> [(id: Int64, score: Double)]? in
            let tokenizer = try IndexTokenizer(db)
            var items: [String] = []
            for words in ranked {
                let tokens = try tokenizer.queryTokens(words.joined(separator: " "))
                guard tokens.count == 1 else { return nil }
                items.append(tokens[0])
            }
            var excluded: Set<Int64> = []
            if !query.exclusions.isEmpty {
                let any = query.exclusions.map(Self.ftsPhrase).joined(separator: " OR ")
                excluded = try Int64.fetchSet(db, sql: "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?", arguments: [any])
            }
            // A quoted phrase of one word is ranked, and every passage must hold it.
            return try KeywordPostings.ranked(SQLitePostingsReader(db: db), items: items, required: Set(query.words.count..<ranked.count), limit: limit,
                                              documents: documents, passages: passages, excluded: excluded, weights: weights)
        }
    }

    /// The indices of the query's words to leave out of its match (`KeywordEvaluation`), from
    /// each word's share of the passages in a few windows of rowids spread over the library.
    func commonWords(_ query: SearchQuery, evaluation: KeywordEvaluation) throws -> Set<Int> {
        guard query.words.count > 1, evaluation.fullBelow < .max else { return [] }
        return try read { db in
            // The totals a library keeps (v8); a library opened without its migrations ranks every word.
            let passages = (try? Int.fetchOne(db, sql: "SELECT value FROM library_totals WHERE name = 'passages'")) ?? 0
            // No sample where the words could not hold enough passages even if each held all.
            guard passages * query.words.count >= evaluation.fullBelow else { return [] }
            // Two subqueries: SQLite reads MIN or MAX alone from the end of the rowid tree, but
            // both in one SELECT scan the table.
            guard let bounds = try Row.fetchOne(db, sql: "SELECT (SELECT MIN(id) FROM passages), (SELECT MAX(id) FROM passages)"),
                  let low: Int64 = bounds[0], let high: Int64 = bounds[1] else { return [] }
            let span = Int64(evaluation.windowSpan)
            let windows = max(1, evaluation.windows)
            let starts = (0..<windows).map { low + (high - low + 1 - span) * Int64($0) / Int64(max(windows - 1, 1)) }
            let rows = try db.cachedStatement(sql: "SELECT COUNT(*) FROM passages WHERE id >= ? AND id < ?")
            let sampled = try starts.reduce(0) { $0 + (try Int.fetchOne(rows, arguments: [$1, $1 + span]) ?? 0) }
            guard sampled > 0 else { return [] }
            let holding = try db.cachedStatement(sql: "SELECT COUNT(*) FROM passages_fts WHERE passages_fts MATCH ? AND rowid >= ? AND rowid < ?")
            let shares = try query.words.map { word in
                let phrase = Self.ftsPhrase([word])
                let hits = try starts.reduce(0) { $0 + (try Int.fetchOne(holding, arguments: [phrase, $1, $1 + span]) ?? 0) }
                return Double(hits) / Double(sampled)
            }
            return evaluation.commonWords(shares: shares, passages: passages)
        }
    }

    /// FTS5's ranking of the passages holding any of the query's words or phrases (and its
    /// phrases, and none of its exclusions), best first; or, `inLibraryOrder`, the first of them
    /// by rowid (no passage ranked but those returned), leaving out `skipping`.
    func rankedMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>?, passages: Set<Int64>?,
                               weights: KeywordWeights, skipping: [Int64] = [], inLibraryOrder: Bool = false) throws
        -> [(id: Int64, score: Double)] {
        // Any word or phrase may match; BM25 ranks by how many and how rare. FTS5's bm25() is
        // lower for better matches, so the score is its negation.
        let any = (query.words.map { [$0] } + query.phrases).map(Self.ftsPhrase).joined(separator: " OR ")
        guard !any.isEmpty, limit > 0 else { return [] }
        // The index's rowid is the passage's id: the passages table is joined only to filter by
        // document (a join per match doubles the time of a word that most passages hold).
        let id = documents == nil ? "passages_fts.rowid" : "p.id"
        var sql: SQL = """
            SELECT \(sql: id), -bm25(passages_fts, \(weights.text), \(weights.section)) AS score
            FROM passages_fts
            """
        if let documents {
            sql += " JOIN passages p ON p.id = passages_fts.rowid WHERE passages_fts MATCH \(any) AND p.document_id IN \(Self.idSet(documents))"
        } else {
            sql += " WHERE passages_fts MATCH \(any)"
        }
        sql += Self.constraints(query, column: id)
        if let passages {
            sql += " AND \(sql: id) IN \(Self.idSet(passages))"
        }
        if !skipping.isEmpty {
            sql += " AND \(sql: id) NOT IN \(Self.idSet(skipping))"
        }
        sql += inLibraryOrder ? " ORDER BY \(sql: id) LIMIT \(limit)" : " ORDER BY score DESC, \(sql: id) LIMIT \(limit)"
        return try read { db in
            try Row.fetchAll(db, SQLRequest<Row>(literal: sql)).map { (id: $0[0], score: $0[1]) }
        }
    }

    /// The passages a query's phrases and exclusions leave, or nil when it has neither (all of them).
    func passageIds(allowedBy query: SearchQuery) throws -> Set<Int64>? {
        guard !query.phrases.isEmpty || !query.exclusions.isEmpty else { return nil }
        let sql: SQL = "SELECT id FROM passages WHERE 1" + Self.constraints(query, column: "id")
        return try read { db in try SQLRequest<Int64>(literal: sql).fetchSet(db) }
    }

    /// The passages a vector scan may return: those of `documents` (all when nil) that hold
    /// the query's phrases and none of its exclusions, as a bitmap SQLite fills; nil when
    /// nothing narrows the search.
    func passageBitmap(documents: Set<Int64>?, allowedBy query: SearchQuery) throws -> IdBitmap? {
        guard documents != nil || !query.phrases.isEmpty || !query.exclusions.isEmpty else { return nil }
        var sql: SQL = "SELECT id FROM passages WHERE 1"
        if let documents { sql += " AND document_id IN \(Self.idSet(documents))" }
        sql += Self.constraints(query, column: "id")
        return try read { db in
            var bitmap = IdBitmap()
            let ids = try Int64.fetchCursor(db, SQLRequest<Int64>(literal: sql))
            while let id = try ids.next() { bitmap.insert(id) }
            return bitmap
        }
    }

    /// `AND column IN (passages with every phrase) AND column NOT IN (passages with any exclusion)`.
    private static func constraints(_ query: SearchQuery, column: String) -> SQL {
        var sql: SQL = ""
        if !query.phrases.isEmpty {
            let all = query.phrases.map(ftsPhrase).joined(separator: " AND ")
            sql += " AND \(sql: column) IN (SELECT rowid FROM passages_fts WHERE passages_fts MATCH \(all))"
        }
        if !query.exclusions.isEmpty {
            let any = query.exclusions.map(ftsPhrase).joined(separator: " OR ")
            sql += " AND \(sql: column) NOT IN (SELECT rowid FROM passages_fts WHERE passages_fts MATCH \(any))"
        }
        return sql
    }

    /// Words as ONE FTS5 phrase string: quoted, so nothing in them is FTS5 syntax (the words are
    /// letters and digits already; a stray quote is dropped all the same).
    private static func ftsPhrase(_ words: [String]) -> String {
        "\"" + words.joined(separator: " ").replacingOccurrences(of: "\"", with: "") + "\""
    }

    /// The token counts of those of `ids` that hold fewer than `tokens` tokens: passages too
    /// short to answer anything alone (a name, a caption), whose vectors are mostly their header.
    func shortPassages(_ ids: [Int64], under tokens: Int) throws -> [Int64: Int] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var short: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(db, SQLRequest<Row>(
                "SELECT id, token_count FROM passages WHERE id IN \(Self.idSet(ids)) AND token_count < \(tokens)"))
            while let row = try rows.next() { short[row[0]] = row[1] }
            return short
        }
    }

    /// Documents of any of these types (`markdown`, `pdf`, `srt` …), in any case (`PDF`).
    func documentIds(types: [String]) throws -> Set<Int64> {
        try read { db in
            try SQLRequest<Int64>("SELECT id FROM documents WHERE lower(type) IN \(types.map { $0.lowercased() })").fetchSet(db)
        }
    }

    /// The passages of these documents.
    func passageIds(documents: Set<Int64>) throws -> Set<Int64> {
        try read { db in
            try SQLRequest<Int64>("SELECT id FROM passages WHERE document_id IN \(Self.idSet(documents))").fetchSet(db)
        }
    }

    /// A set of row ids as ONE bound value, for `column IN \(idSet(ids))`: a library's ids can
    /// outnumber the variables SQLite allows in one statement.
    static func idSet<S: Sequence>(_ ids: S) -> SQL where S.Element == Int64 {
        let array = "[" + ids.map(String.init).joined(separator: ",") + "]"
        return "(SELECT value FROM json_each(\(array)))"
    }
}
