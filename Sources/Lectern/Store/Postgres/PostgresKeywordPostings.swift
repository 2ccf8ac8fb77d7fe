import Foundation

/// A PostgreSQL library's keyword postings: the SQLite library's rows (`KeywordPostings`) in
/// tables of the same names (`bytea` for the encoded lists), made by the same FTS5 tokenizer
/// (`IndexTokenizer.inMemory`), written and removed in the transactions that write and remove
/// passages, and ranked by the same scorer (`KeywordPostings.ranked`) through
/// `PostgresPostingsReader`: a query of words gets the SQLite library's hits and scores.
enum PostgresKeywordPostings {
    /// What a transaction's writes change in the shared rows: each term's passages, and the
    /// passages' total size in tokens. Applied once, at the end (`apply`).
    struct Change {
        var terms: [String: Int] = [:]
        var tokens = 0
    }

    /// Writes the postings of a document's passages (ids ascending), in the caller's transaction:
    /// one statement for the terms' rows, one for the row sizes. The terms' counts go to `change`.
    static func add(_ connection: PostgresConnection, documentId: String, passages: [KeywordPostings.Passage],
                    tokenizer: IndexTokenizer, change: inout Change) throws {
        guard let postings = try KeywordPostings.postings(of: passages, tokenizer: tokenizer) else { return }
        try connection.query("""
            insert into keyword_postings (term, document_id, passages, data)
            select t.term, $1::bigint, t.passages, decode(t.data, 'hex')
            from unnest($2::text[], $3::integer[], $4::text[]) as t(term, passages, data)
            """, [documentId, PostgresLibrary.textArray(postings.terms.map(\.term)),
                  "{" + postings.terms.map { String($0.passages) }.joined(separator: ",") + "}",
                  "{" + postings.terms.map { ContentHash.hex($0.data) }.joined(separator: ",") + "}"])
        try connection.query("insert into keyword_sizes (document_id, tokens, data) values ($1, $2, decode($3, 'hex'))",
                             [documentId, String(postings.tokens), ContentHash.hex(postings.sizes)])
        for (term, count, _) in postings.terms { change.terms[term, default: 0] += count }
        change.tokens += postings.tokens
    }

    /// Removes a document's postings, in the caller's transaction (its rows are found by the
    /// document: PostgreSQL keeps an index by document, not a second tokenizing of its passages
    /// as SQLite does). The terms' counts go to `change`.
    static func remove(_ connection: PostgresConnection, documentId: String, change: inout Change) throws {
        for row in try connection.query("delete from keyword_postings where document_id = $1 returning term, passages", [documentId]).rows {
            if let term = row[0], let count = row[1].flatMap({ Int($0) }) { change.terms[term, default: 0] -= count }
        }
        for row in try connection.query("delete from keyword_sizes where document_id = $1 returning tokens", [documentId]).rows {
            change.tokens -= row[0].flatMap { Int($0) } ?? 0
        }
    }

    /// Applies `change` to the terms' counts and the total, in the caller's transaction. The
    /// totals' one row is locked first: every writer changes the terms' rows only while it holds
    /// it, so two writers sharing terms take turns instead of waiting for each other in a circle.
    static func apply(_ connection: PostgresConnection, _ change: Change) throws {
        try connection.query("update keyword_totals set postings_tokens = postings_tokens + $1", [String(change.tokens)])
        let terms = change.terms.filter { $0.value != 0 }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        guard !terms.isEmpty else { return }
        let names = PostgresLibrary.textArray(terms.map(\.key))
        try connection.query("""
            insert into keyword_terms (term, passages)
            select t.term, t.passages from unnest($1::text[], $2::bigint[]) with ordinality as t(term, passages, i) order by t.i
            on conflict (term) do update set passages = keyword_terms.passages + excluded.passages
            """, [names, "{" + terms.map { String($0.value) }.joined(separator: ",") + "}"])
        if terms.contains(where: { $0.value < 0 }) {
            try connection.query("delete from keyword_terms where term = any($1::text[]) and passages <= 0", [names])
        }
    }

    /// Builds the postings of every document a library holds (the migration that brings them),
    /// a document's passages at a time.
    static func addAll(_ connection: PostgresConnection) throws {
        let tokenizer = try IndexTokenizer.inMemory()
        var change = Change()
        let documents = try connection.query("select distinct document_id from passages order by document_id").rows.compactMap { $0[0] }
        for document in documents {
            let rows = try connection.query("select id, text, section from passages where document_id = $1 order by id", [document]).rows
            let passages = rows.compactMap { row in
                row[0].flatMap { Int64($0) }.map { KeywordPostings.Passage(id: $0, text: row[1] ?? "", section: row[2]) }
            }
            try add(connection, documentId: document, passages: passages, tokenizer: tokenizer, change: &change)
        }
        try apply(connection, change)
    }
}

/// A PostgreSQL library's postings as `KeywordPostings.ranked` reads them: the counts in one
/// statement, and every posting and row size of the documents holding the terms in a second,
/// in the binary form, read where libpq holds them.
struct PostgresPostingsReader: KeywordPostingsReader {
    let connection: PostgresConnection

    /// Nil for a library from before the postings, read as it is (`.read` does not migrate).
    func statistics(of terms: [String]) throws -> (passages: Int64, tokens: Int64, holding: [Int64])? {
        let row: [String?]
        do {
            row = try connection.query("""
                select passages, postings_tokens,
                       array(select coalesce((select k.passages from keyword_terms k where k.term = t.term), 0)
                             from unnest($1::text[]) with ordinality as t(term, i) order by t.i)::text
                from keyword_totals
                """, [PostgresLibrary.textArray(terms)]).rows.first ?? []
        } catch let error as PostgresError where error.sqlState == "42P01" || error.sqlState == "42703" {
            return nil
        }
        guard row.count == 3, let passages = row[0].flatMap({ Int64($0) }), let tokens = row[1].flatMap({ Int64($0) }) else { return nil }
        let holding = (row[2] ?? "{}").dropFirst().dropLast().split(separator: ",").map { Int64($0) ?? 0 }
        guard holding.count == terms.count else {
            throw PostgresError(kind: .query, endpoint: connection.endpoint.description,
                                message: "the keyword counts came back as \(row[2] ?? "nothing")")
        }
        return (passages, tokens, holding)
    }

    /// The passages holding any of `terms`, from their postings (none for no terms); nil for a
    /// library from before the postings.
    func passages(holding terms: [String]) throws -> Set<Int64>? {
        guard !terms.isEmpty else { return [] }
        do {
            return try connection.withBinaryRows("select data from keyword_postings where term = any($1::text[])",
                                                 [PostgresLibrary.textArray(terms)]) { rows in
                var ids = Set<Int64>()
                for row in 0..<rows.count { KeywordPostings.passageIds(rows.bytes(row, 0)) { ids.insert($0) } }
                return ids
            }
        } catch let error as PostgresError where error.sqlState == "42P01" {
            return nil
        }
    }

    func eachDocument(terms: [String], documents: Set<Int64>?,
                      _ body: (Int64, [TermPostings], UnsafeRawBufferPointer?) throws -> Void) throws {
        guard !terms.isEmpty else { return }
        var parameters: [String?] = [PostgresLibrary.textArray(terms)]
        var filter = ""
        if let documents {
            parameters.append(PostgresLibrary.bigintArray(documents))
            filter = " where k.document_id = any($2::bigint[])"
        }
        // Each document's row sizes (term 0) before its terms' postings (1…), documents in order.
        try connection.withBinaryRows("""
            with terms as (select t.term, t.i from unnest($1::text[]) with ordinality as t(term, i)),
            postings as materialized (
                select k.document_id, terms.i, k.passages::bigint as passages, k.data
                from terms join keyword_postings k on k.term = terms.term\(filter))
            select document_id, i, passages, data from postings
            union all
            select s.document_id, 0::bigint, 0::bigint, s.data from keyword_sizes s
            where s.document_id in (select document_id from postings)
            order by 1, 2
            """, parameters) { rows in
            var postings = [TermPostings](repeating: .none, count: terms.count)
            var row = 0
            while row < rows.count {
                let document = rows.int64(row, 0)
                var sizes: UnsafeRawBufferPointer?
                for term in postings.indices { postings[term] = .none }
                while row < rows.count && rows.int64(row, 0) == document {
                    let term = Int(rows.int64(row, 1))
                    if term == 0 {
                        sizes = rows.bytes(row, 3)
                    } else if term <= terms.count {
                        postings[term - 1] = TermPostings(passages: Int(rows.int64(row, 2)), data: rows.bytes(row, 3))
                    }
                    row += 1
                }
                try body(document, postings, sizes)
            }
        }
    }
}
