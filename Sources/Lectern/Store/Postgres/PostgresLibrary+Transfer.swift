import Foundation

/// A PostgreSQL library as the source or the target of `lectern migrate`.
extension PostgresLibrary: LibraryTransfer {
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
            let row = try connection.query("""
                select (select count(*) from run_failures), (select count(*) from fetch_cache), (select count(*) from embedding_cache)
                """).rows[0]
            return ["run failures": Int(row[0] ?? "0") ?? 0, "web validators": Int(row[1] ?? "0") ?? 0, "cached vectors": Int(row[2] ?? "0") ?? 0]
        }
    }
}
