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
    /// `limit`; only passages of `documents` when given.
    func keywordMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>? = nil, passages: Set<Int64>? = nil,
                        weights: KeywordWeights = KeywordWeights()) throws -> [(id: Int64, score: Double)] {
        // Any word or phrase may match; BM25 ranks by how many and how rare. FTS5's bm25() is
        // lower for better matches, so the score is its negation.
        let any = (query.words.map { [$0] } + query.phrases).map(Self.ftsPhrase).joined(separator: " OR ")
        guard !any.isEmpty else { return [] }
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
        sql += " ORDER BY score DESC, \(sql: id) LIMIT \(limit)"
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
