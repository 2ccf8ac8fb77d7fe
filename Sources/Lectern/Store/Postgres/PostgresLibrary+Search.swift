import Foundation

/// Searching a PostgreSQL library: a query of words ranked from the keyword postings by the
/// SQLite library's scorer (`PostgresPostingsReader`), one with a phrase of several words by
/// BM25 over the tsvector keywords computed in SQL (`PostgresKeywordSearch`); vectors through
/// the HNSW index re-ranked in float32; filters applied inside each; and the writer lock, a
/// session-level advisory lock.
extension PostgresLibrary {
    func keywordMatches(_ query: SearchQuery, limit: Int) throws -> [(id: Int64, score: Double)] {
        try keywordMatches(query, limit: limit, documents: nil, passages: nil, weights: LibraryStore.KeywordWeights(), evaluation: KeywordEvaluation())
    }

    func keywordMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>?, passages: Set<Int64>?,
                        weights: LibraryStore.KeywordWeights, evaluation: KeywordEvaluation) throws -> [(id: Int64, score: Double)] {
        if evaluation.postings, let ranked = try postingsMatches(query, limit: limit, documents: documents, passages: passages, weights: weights) {
            return ranked
        }
        guard let search = PostgresKeywords.search(query, documents: documents, passages: passages, weights: weights) else {
            return []
        }
        return try ranked(search, limit: limit)
    }

    /// `keywordMatches` ranked from the keyword postings, as the SQLite library ranks it
    /// (`LibraryStore.postingsMatches`): the same hits with the same scores. Nil where the
    /// postings cannot rank the query (a quoted phrase or a word of more than one token) or the
    /// library has none (one from before them, read as it is).
    func postingsMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>?, passages: Set<Int64>?,
                         weights: LibraryStore.KeywordWeights) throws -> [(id: Int64, score: Double)]? {
        let ranked = query.words.map { [$0] } + query.phrases
        guard !ranked.isEmpty, ranked.count <= 64 else { return nil }
        return try session {
            var items: [String] = []
            for words in ranked {
                let tokens = try tokenizer.queryTokens(words.joined(separator: " "))
                guard tokens.count == 1 else { return nil }
                items.append(tokens[0])
            }
            // An excluded word's passages from its postings, as FTS5 finds them in SQLite; an
            // excluded phrase of several words from the tsvector's positions.
            let reader = PostgresPostingsReader(connection: connection)
            var excludedTerms: [String] = []
            var excludedPhrases: [[String]] = []
            for words in query.exclusions {
                let tokens = try tokenizer.queryTokens(words.joined(separator: " "))
                if tokens.count == 1 { excludedTerms.append(tokens[0]) } else if tokens.count > 1 { excludedPhrases.append(words) }
            }
            guard var excluded = try reader.passages(holding: excludedTerms) else { return nil }
            let phrases = excludedPhrases.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
            if !phrases.isEmpty {
                let any = phrases.map(PostgresKeywords.phrase).joined(separator: " | ")
                for row in try connection.query("select id from passages where keywords @@ $1::tsquery", [any]).rows {
                    if let id = row[0].flatMap({ Int64($0) }) { excluded.insert(id) }
                }
            }
            // A quoted phrase of one word is ranked, and every passage must hold it.
            return try KeywordPostings.ranked(reader, items: items,
                                              required: Set(query.words.count..<ranked.count), limit: limit, documents: documents,
                                              passages: passages, excluded: excluded, weights: weights)
        }
    }

    /// The best `limit` rows of a keyword search by BM25: its items counted, then ranked over
    /// the rows holding the items that can change the top (`PostgresKeywordSearch.leftOut`),
    /// or, when those rows do not settle it, over the rows holding any item.
    func ranked(_ search: PostgresKeywordSearch, limit: Int) throws -> [(id: Int64, score: Double)] {
        guard limit > 0 else { return [] }
        return try session {
            let counted = try connection.query(search.countsSQL, [Self.textArray(search.itemQueries)]).rows[0]
            let rows = Double(counted[0] ?? "0") ?? 0
            let hits = (counted[2] ?? "{}").dropFirst().dropLast().split(separator: ",").map { Double($0) ?? 0 }
            guard hits.count == search.items.count else {
                throw PostgresError(kind: .query, endpoint: display, message: "the keyword counts came back as \(counted[2] ?? "nothing")")
            }
            let idfs = hits.map { PostgresKeywordSearch.idf(holding: $0, of: rows) }
            func rank(_ matching: [Int]) throws -> [(id: Int64, score: Double)] {
                let parameters: [String?] = [
                    Self.textArray(search.items.map { $0.joined(separator: " ") }), "{" + idfs.map(\.description).joined(separator: ",") + "}",
                    matching.map { search.itemQueries[$0] }.joined(separator: " | "), String(limit), counted[1] ?? "1",
                ]
                return try connection.query(search.sql, parameters + search.parameters).rows.map { (id: Int64($0[0]!)!, score: Double($0[1]!)!) }
            }
            let left = Set(PostgresKeywordSearch.leftOut(idfs: idfs))
            guard !left.isEmpty else { return try rank(Array(search.items.indices)) }
            // A row holding none of the items ranked holds only items left out: it scores under
            // their bounds' sum, so a full top whose last row scores more is the whole answer.
            let found = try rank(search.items.indices.filter { !left.contains($0) })
            let bound = left.map { PostgresKeywordSearch.bound(idfs[$0]) }.reduce(0, +)
            if found.count == limit, let last = found.last, last.score > bound { return found }
            return try rank(Array(search.items.indices))
        }
    }

    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo) throws -> [(id: Int64, score: Float)] {
        try nearestPassages(to: vector, k: k, embedder: embedder, documents: nil, passages: nil,
                            allowedBy: SearchQuery(parsing: ""), scan: VectorScan { _, _ in [] })
    }

    /// The HNSW index's search `max(4k, 100)` deep (`hnsw.ef_search`) among the allowed passages
    /// (pgvector's iterative scan goes on past rows a filter rejects, so a filtered search still
    /// finds them): its best `max(2k, 100)` candidates by their half-precision distance, re-ranked
    /// by their float32 cosine, as many as the SQLite search re-ranks of its int8 scan. The
    /// search's depth is what finds the exact top 10 (400 find 0.992 of it on 43k passages of real
    /// text, 200 found 0.948; docs/benchmarks.md); the re-rank reads each candidate's float32
    /// vector out of line, and a half-precision distance is within ~1e-3 of the exact one, so
    /// the candidates past the first 2k change nothing but the time.
    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo, documents: Set<Int64>?, passages: Set<Int64>?,
                         allowedBy query: SearchQuery, scan: VectorScan) throws -> [(id: Int64, score: Float)] {
        guard vector.count == embedder.dimension, k > 0 else { return [] }
        let depth = max(4 * k, 100)
        let reranked = max(2 * k, 100)
        let literal = Self.vectorLiteral(vector)
        let dimension = embedder.dimension
        var parameters: [String?] = [literal, String(reranked), literal, String(k)]
        var filters = ""
        func bind(_ value: String, as type: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)::\(type)"
        }
        let phrases = query.phrases.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
        if !phrases.isEmpty {
            filters += " and keywords @@ " + bind(phrases.map(PostgresKeywords.phrase).joined(separator: " & "), as: "tsquery")
        }
        let exclusions = query.exclusions.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
        if !exclusions.isEmpty {
            filters += " and not keywords @@ " + bind(exclusions.map(PostgresKeywords.phrase).joined(separator: " | "), as: "tsquery")
        }
        if let documents { filters += " and document_id = any(" + bind(Self.bigintArray(documents), as: "bigint[]") + ")" }
        if let passages { filters += " and id = any(" + bind(Self.bigintArray(passages), as: "bigint[]") + ")" }
        return try transaction {
            // ef_search at least the depth, or the index returns fewer candidates than asked.
            try connection.query("select set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
                                 [String(min(max(depth, 40), 1000))])
            return try connection.query("""
                with candidates as (
                    select id, exact from passages where vector_dims(embedding) = \(dimension)\(filters)
                    order by embedding::halfvec(\(dimension)) <=> $1::halfvec(\(dimension)) limit $2)
                select id, 1 - (exact <=> $3::vector) as score from candidates order by score desc, id limit $4
                """, parameters).rows.map { (id: Int64($0[0]!)!, score: Float($0[1]!)!) }
        }
    }

    // MARK: The keyword postings' order

    /// Rows written after the postings were put in term order go to the table's end (or into
    /// the space removed documents left), each term's on pages of their own again. When the
    /// table has grown by a quarter since (and by 8 pages), it is clustered again: a
    /// keyword search reads its words' rows from a few pages instead of a page a row
    /// (docs/benchmarks.md). The first call of a library records its size.
    func orderKeywordPostings() throws -> Bool {
        try session {
            let pages = Int64(try connection.query("select pg_relation_size('keyword_postings') / 8192").scalar ?? "") ?? 0
            let ordered = try connection.query("select value from settings where key = 'postings_ordered_pages'").scalar.flatMap { Int64($0) }
            if let ordered, pages >= ordered + max(ordered / 4, 8) {
                try connection.query("cluster keyword_postings")
                try recordOrderedPostings()
                return true
            }
            if ordered == nil { try recordOrderedPostings() }
            return false
        }
    }

    /// The postings' size in pages when they were last put in order.
    func recordOrderedPostings() throws {
        try connection.query("""
            insert into settings (key, value) values ('postings_ordered_pages', (pg_relation_size('keyword_postings') / 8192)::text)
            on conflict (key) do update set value = excluded.value
            """)
    }

    // MARK: The writer lock

    /// A session-level advisory lock: held until released or until this session ends (a
    /// killed process's lock goes with its connection), by any machine's Lectern alike. Who
    /// holds it is kept in `settings` for the message another writer gets, and removed on
    /// release: a line found there by the next holder names one that died (`previous`).
    /// Waiting polls, as the SQLite library's lock does, so that a signal stops the wait.
    func withWriterLock<T>(wait: Bool, cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void,
                           _ body: (RunLock.Holder?) throws -> T) throws -> T {
        let key = String(PostgresSchema.writerLock)
        var told = false
        while try session({ try connection.query("select pg_try_advisory_lock($1)", [key]).scalar }) != "t" {
            let holder = try session { try connection.query("select value from settings where key = 'writer_lock'").scalar }.flatMap(Self.holder)
            guard wait else { throw RunLock.Held(holder: holder) }
            if !told {
                waiting(holder)
                told = true
            }
            if cancellation?.isCancelled == true {
                throw LecternError(.interrupted, display, "stopped while waiting for the run lock")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        defer {
            session {
                _ = try? connection.query("delete from settings where key = 'writer_lock'")
                _ = try? connection.query("select pg_advisory_unlock($1)", [key])
            }
        }
        let previous = try session { try connection.query("select value from settings where key = 'writer_lock'").scalar }.flatMap(Self.holder)
        let started = ISO8601DateFormatter().string(from: Date())
        try session {
            _ = try connection.query("""
                insert into settings (key, value) values ('writer_lock', $1) on conflict (key) do update set value = excluded.value
                """, ["\(getpid()) \(started)"])
        }
        return try body(previous)
    }

    /// Polls for the lock (a shared try-lock, released at once), as a SQLite library's waiter
    /// polls its lock file, so that a signal still stops the wait.
    func waitWhileWriterLocked(cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void) throws {
        let key = String(PostgresSchema.writerLock)
        var told = false
        while try session({ try connection.query("select pg_try_advisory_lock_shared($1)", [key]).scalar }) != "t" {
            if !told {
                let line = try session { try connection.query("select value from settings where key = 'writer_lock'").scalar }
                waiting(line.flatMap(Self.holder))
                told = true
            }
            try cancellation?.check(display)
            Thread.sleep(forTimeInterval: 0.2)
        }
        try session { _ = try connection.query("select pg_advisory_unlock_shared($1)", [key]) }
    }

    private static func holder(_ line: String) -> RunLock.Holder? {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let pid = Int32(parts[0]) else { return nil }
        return RunLock.Holder(pid: pid, started: String(parts[1]))
    }
}
