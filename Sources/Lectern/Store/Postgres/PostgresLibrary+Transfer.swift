import Foundation

/// A PostgreSQL library as the source or the target of `lectern migrate`.
extension PostgresLibrary: LibraryTransfer {
    /// Into a library without passages, the HNSW index waits for the last document: pgvector
    /// builds it from the rows in one pass, many times faster than inserting every vector
    /// into the graph as it comes (pgvector's own advice for a bulk load).
    func beginCopy() throws {
        try session {
            embeddingIndexDeferred = try connection.query("select not exists (select 1 from passages)").scalar == "t"
            if embeddingIndexDeferred { try connection.query("drop index if exists passages_embedding") }
        }
    }

    /// The HNSW index of the recorded embedder's dimension, when it is missing (a copy that
    /// deferred it, or one stopped before it was built), the keyword postings put in term
    /// order (a keyword search reads each of its words' rows: written a document at a time,
    /// each sits on a page of its own), and a vacuum of the rows just written: the planner's
    /// statistics, so the first searches are planned for the library as it now is, and the
    /// visibility map, without which counting a word's passages reads their rows.
    func finishCopy() throws {
        try session {
            embeddingIndexDeferred = false
            if let embedder = try recordedEmbedder() {
                try connection.query(Self.embeddingIndex(dimension: embedder.dimension, ifNotExists: true))
            }
            try connection.query("cluster keyword_postings")
            try recordOrderedPostings()
            try connection.query("vacuum (analyze) passages, keyword_postings, keyword_sizes, keyword_terms")
        }
    }

    /// Asks per call (a document's passages): the server keeps the vectors, the process need not.
    func passageVectors(embedder: EmbedderInfo) throws -> PassageVectors {
        PassageVectors { ids in
            guard !ids.isEmpty else { return [] }
            let rows = try self.session {
                try self.connection.query("select id, exact::text from passages where id = any($1::bigint[]) and vector_dims(exact) = $2",
                                          [Self.bigintArray(ids), String(embedder.dimension)]).rows
            }
            var found: [Int64: [Float]] = [:]
            for row in rows {
                if let id = row[0].flatMap({ Int64($0) }), let text = row[1] { found[id] = Self.floats(text) }
            }
            return ids.map { found[$0] }
        }
    }

    func fetchCacheEntries() throws -> [FetchCacheEntry] {
        try session { try connection.records(FetchCacheEntry.self, "select * from fetch_cache order by url collate \"C\"") }
    }

    func allCachedVectors(embedder: EmbedderInfo) throws -> [String: [Float]] {
        try session {
            var found: [String: [Float]] = [:]
            for row in try connection.query("select text_hash, vector from embedding_cache where embedder = $1", [embedder.key]).rows {
                let vector = Self.floats(row[1] ?? "")
                if vector.count == embedder.dimension, let hash = row[0] { found[hash] = vector }
            }
            return found
        }
    }

    /// Under the run's own id; the id sequence is moved past it, so that the runs recorded
    /// here afterwards follow the copied ones.
    func importRun(_ run: RunRecord) throws -> Bool {
        try transaction {
            guard try connection.query("select 1 from runs where id = $1", [String(run.id)]).count == 0 else { return false }
            try connection.query("""
                insert into runs (id, command, arguments, started_at, ended_at, status, counts) values ($1, $2, $3, $4, $5, $6, $7)
                """, [String(run.id), run.command, LibraryStore.json(run.arguments), run.startedAt, run.endedAt, run.status.rawValue,
                      LibraryStore.json(run.counts)])
            for failure in run.failures {
                try connection.query("""
                    insert into run_failures (run_id, input, stage, reason, severity, at) values ($1, $2, $3, $4, $5, $6)
                    """, [String(run.id), failure.input, failure.stage, failure.reason, failure.severity.rawValue, run.endedAt ?? run.startedAt])
            }
            try connection.query("select setval(pg_get_serial_sequence('runs', 'id'), (select max(id) from runs))")
            return true
        }
    }

    func transferCounts() throws -> [String: Int] {
        try session {
            var counts: [String: Int] = [:]
            for (name, from) in LibraryTransferCounts.tables {
                let table = String(from.prefix { $0 != " " })
                guard try connection.query("select to_regclass($1) is not null", [table]).scalar == "t" else {
                    counts[name] = 0
                    continue
                }
                counts[name] = Int(try connection.query("select count(*) from \(from)").scalar ?? "0") ?? 0
            }
            return counts
        }
    }

    // MARK: The curriculum wing's rows

    func cardReportRecords() throws -> [CardReportRecord] {
        try session { try connection.records(CardReportRecord.self, "select * from card_reports order by run_id") }
    }

    func modelCacheRecords() throws -> [ModelCacheRecord] {
        try session { try connection.records(ModelCacheRecord.self, "select * from llm_cache order by key collate \"C\"") }
    }

    func modelCallRecords() throws -> [ModelCallRecord] {
        try session { try connection.records(ModelCallRecord.self, "select * from llm_calls order by id") }
    }

    /// None in a library of an earlier Lectern, read as it is (no `v4-run-outputs` yet).
    func runOutputRecords() throws -> [RunOutputRecord] {
        try session {
            guard try connection.query("select to_regclass('run_outputs') is not null").scalar == "t" else { return [] }
            return try connection.records(RunOutputRecord.self, "select * from run_outputs order by id")
        }
    }

    func cardBasisRecords() throws -> [CardBasisRecord] {
        try session {
            guard try connection.query("select to_regclass('card_bases') is not null").scalar == "t" else { return [] }
            return try connection.records(CardBasisRecord.self, "select * from card_bases order by curriculum collate \"C\"")
        }
    }

    func importCards(_ cards: [CardRecord], curriculum name: String) throws {
        try transaction {
            try connection.query("delete from cards where curriculum = $1", [name])
            try importRows(cards.map { card in
                var card = card
                (card.id, card.curriculum) = (nil, name)
                return card
            }, into: "cards", columns: Self.cardColumns)
        }
    }

    func importCardReports(_ reports: [CardReportRecord]) throws -> Int {
        try transaction { try importRows(reports, into: "card_reports", columns: ["run_id", "curriculum", "report", "created_at"]) }
    }

    func importModelCache(_ answers: [ModelCacheRecord]) throws -> Int {
        try transaction {
            try importRows(answers, into: "llm_cache", columns: [
                "key", "provider", "model", "template", "response", "input_tokens", "output_tokens", "truncated", "finish_reason", "created_at",
            ])
        }
    }

    /// Under their own ids; the id sequence is moved past them, as for runs.
    func importModelCalls(_ calls: [ModelCallRecord]) throws -> Int {
        try transaction {
            let added = try importRows(calls, into: "llm_calls", columns: [
                "id", "run_id", "provider", "model", "template", "input_tokens", "output_tokens", "cost_usd", "cached", "at", "subject",
                "prompt", "response", "finish_reason", "duration_ms",
            ])
            if added > 0 { try connection.query("select setval(pg_get_serial_sequence('llm_calls', 'id'), (select max(id) from llm_calls))") }
            return added
        }
    }

    func importRunOutputs(_ outputs: [RunOutputRecord]) throws -> Int {
        try transaction {
            let added = try importRows(outputs, into: "run_outputs", columns: [
                "id", "run_id", "path", "format", "content_hash", "build_key", "cards_basis", "written",
            ])
            if added > 0 { try connection.query("select setval(pg_get_serial_sequence('run_outputs', 'id'), (select max(id) from run_outputs))") }
            return added
        }
    }

    func importCardBases(_ bases: [CardBasisRecord]) throws -> Int {
        try transaction { try importRows(bases, into: "card_bases", columns: ["curriculum", "build_key"]) }
    }

    /// Inserts `records` a few hundred a statement (each its record's JSON), leaving out those
    /// whose key is there already; returns how many were added.
    @discardableResult
    private func importRows<T: Encodable>(_ records: [T], into table: String, columns: [String]) throws -> Int {
        var added = 0
        for start in stride(from: 0, to: records.count, by: 500) {
            added += try insert(Array(records[start..<min(start + 500, records.count)]), into: table, columns: columns,
                                conflict: "on conflict do nothing").affected
        }
        return added
    }
}
