import Foundation
import GRDB

extension LibraryStore {
    /// Passages whose text or section holds any of `terms`, best BM25 first (text weighs twice
    /// the section), at most `limit`; only passages of `documents` when given.
    func keywordMatches(_ terms: [String], limit: Int, documents: Set<Int64>? = nil) throws -> [Int64] {
        // Each word quoted (no FTS syntax from users), any word may match; BM25 ranks by how many and how rare.
        let match = terms.map { "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"" }.joined(separator: " OR ")
        var sql: SQL = """
            SELECT p.id FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid
            WHERE passages_fts MATCH \(match)
            """
        if let documents {
            sql += " AND p.document_id IN \(Self.idSet(documents))"
        }
        sql += " ORDER BY bm25(passages_fts, 1.0, 0.5) LIMIT \(limit)"
        return try read { db in try SQLRequest<Int64>(literal: sql).fetchAll(db) }
    }

    /// Documents of any of these types (`markdown`, `pdf`, `srt` …).
    func documentIds(types: [String]) throws -> Set<Int64> {
        try read { db in
            try SQLRequest<Int64>("SELECT id FROM documents WHERE type IN \(types)").fetchSet(db)
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
