import Foundation

/// The run record of a PostgreSQL library, as the SQLite library keeps it (`runs`,
/// `run_failures`), and what `lectern runs`, `runs show`, `logs` and a pipeline's labels read
/// and write there.
extension PostgresLibrary {
    /// A run's own advisory lock: its whole id as the two int4 keys (high and low halves), so
    /// every run has its own (an id modulo 2^31 made runs 2^31 apart share one), apart from
    /// Lectern's other advisory locks, which take one bigint key. The session that records a
    /// run holds it until the run ends, so a run left `running` whose lock nobody holds was
    /// recorded by a session that is gone (a killed process, a machine that restarted): a pid
    /// cannot say that when runs of several machines share the table.
    static func runLockKeys(_ id: Int64) -> [String?] {
        [String(Int32(truncatingIfNeeded: id >> 32)), String(Int32(truncatingIfNeeded: id))]
    }

    /// Whether the run `r` (in the statement around it) is held by a live session: pg_locks
    /// shows the two int4 keys as unsigned oids.
    private static let runIsHeld = """
        exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.granted and l.objsubid = 2
            and l.database = (select oid from pg_database where datname = current_database())
            and l.classid::bigint = (r.id >> 32) and l.objid::bigint = (r.id & 4294967295))
        """

    /// Starts a run record with this process's pid and start, and takes the run's lock for this
    /// session. Runs left `running` whose lock no session holds become `interrupted` first.
    func beginRun(command: String, arguments: [String]) throws -> Int64 {
        let process = RunProcess.current
        return try transaction {
            try connection.query("update runs r set status = $1 where status = $2 and not \(Self.runIsHeld)",
                                 [RunStatus.interrupted.rawValue, RunStatus.running.rawValue])
            let id = try connection.query("""
                insert into runs (command, arguments, started_at, status, counts, pid, process_start)
                values ($1, $2, $3, $4, '{}', $5, $6) returning id
                """, [command, LibraryStore.json(arguments), LibraryStore.now(), RunStatus.running.rawValue, String(process.pid),
                      process.startTicks.map(String.init)]).scalar ?? "0"
            // Session-level: taken inside the transaction that makes the row visible, so no
            // other session ever sees this run without its lock; kept after the commit.
            let run = Int64(id) ?? 0
            try connection.query("select pg_advisory_lock($1::int, $2::int)", Self.runLockKeys(run))
            return run
        }
    }

    /// Saves the counts; with a status, ends the run and gives its lock up.
    func updateRun(_ id: Int64, counts: [String: Int], status: RunStatus?) throws {
        try session {
            if let status {
                try connection.query("update runs set counts = $1, status = $2, ended_at = $3 where id = $4",
                                     [LibraryStore.json(counts), status.rawValue, LibraryStore.now(), String(id)])
                try connection.query("select pg_advisory_unlock($1::int, $2::int)", Self.runLockKeys(id))
            } else {
                try connection.query("update runs set counts = $1 where id = $2", [LibraryStore.json(counts), String(id)])
            }
        }
    }

    func recordFailure(run: Int64, input: String, stage: String, reason: String, severity: FailureSeverity) throws {
        try session {
            _ = try connection.query("""
                insert into run_failures (run_id, input, stage, reason, severity, at) values ($1, $2, $3, $4, $5, $6)
                """, [String(run), input, stage, reason, severity.rawValue, LibraryStore.now()])
        }
    }

    /// A `runs` row with whether a live session holds it.
    private struct RunRow: Decodable {
        var id: Int64
        var command: String
        var arguments: [String]
        var started_at: String
        var ended_at: String?
        var status: RunStatus
        var counts: [String: Int]
        var held: Bool
    }

    /// The newest runs first, as the SQLite library lists them; a run marked `running` that no
    /// live session holds is listed as `interrupted` (nothing is written: listing only reads).
    func runs(limit: Int, id: Int64?) throws -> [RunRecord] {
        try session {
            let rows = try connection.records(RunRow.self, """
                select id, command, arguments::json as arguments, started_at, ended_at, status, counts::json as counts,
                    \(Self.runIsHeld) as held
                from runs r where $1::bigint is null or id = $1::bigint order by id desc limit $2
                """, [id.map(String.init), String(limit)])
            // A library of an earlier Lectern, read as it is, has no outputs' table yet.
            let keepsOutputs = try hasRunOutputs()
            return try rows.map { run in
                let failures = try connection.records(RunFailure.self, """
                    select input, stage, reason, severity from run_failures where run_id = $1 order by id
                    """, [String(run.id)])
                let outputs = try keepsOutputs ? connection.records(RunOutputRecord.self, """
                    select * from run_outputs where run_id = $1 and written order by path collate "C"
                    """, [String(run.id)]) : []
                return RunRecord(
                    id: run.id, command: run.command, arguments: run.arguments, startedAt: run.started_at, endedAt: run.ended_at,
                    status: run.status == .running && !run.held ? .interrupted : run.status,
                    counts: run.counts, failures: failures, stages: RunStageReport.stages(in: run.counts),
                    model: ModelUsage(counts: run.counts), outputs: outputs.map(\.output))
            }
        }
    }

    /// The last `limit` model calls (all when nil), newest first, as `lectern logs` lists them.
    /// None while the library has no call log (no command that asks a model runs on
    /// PostgreSQL yet, and a read adds no table).
    func modelCallLog(limit: Int?, template: String?) throws -> [ModelCallLog] {
        try session {
            guard try connection.query("select to_regclass('llm_calls') is not null").scalar == "t" else { return [] }
            var sql = "select * from llm_calls"
            var parameters: [String?] = []
            if let template {
                sql += " where template = $1 or template like $2"
                parameters += [template, template.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                    .replacingOccurrences(of: "_", with: "\\_") + "/%"]
            }
            sql += " order by id desc"
            if let limit {
                parameters.append(String(limit))
                sql += " limit $\(parameters.count)"
            }
            return try connection.records(ModelCallRecord.self, sql, parameters).map(ModelCallLog.init)
        }
    }

    // MARK: The files a run writes

    func recordOutput(run: Int64?, _ output: RunOutput) throws {
        try session {
            try insert([RunOutputRecord(run: run, output)], into: "run_outputs", columns: [
                "run_id", "path", "format", "content_hash", "build_key", "cards_basis", "written",
            ])
        }
    }

    func latestOutput(path: String) throws -> RunOutput? {
        try session {
            try connection.records(RunOutputRecord.self, "select * from run_outputs where path = $1 order by id desc limit 1",
                                   [path]).first?.output
        }
    }

    func cardsBasis(curriculum: String) throws -> String? {
        try session { try connection.query("select build_key from card_bases where curriculum = $1", [curriculum]).scalar }
    }

    func setCardsBasis(curriculum: String, buildKey: String) throws {
        try session {
            try connection.query("""
                insert into card_bases (curriculum, build_key) values ($1, $2)
                on conflict (curriculum) do update set build_key = excluded.build_key
                """, [curriculum, buildKey])
        }
    }

    /// Whether the schema has `v4-run-outputs` (a read opens an older library as it is).
    private func hasRunOutputs() throws -> Bool {
        try connection.query("select to_regclass('run_outputs') is not null").scalar == "t"
    }

    /// A pipeline's licence and tags in the document's metadata, as in a SQLite library;
    /// written only when they differ. Returns whether it wrote.
    @discardableResult
    func label(documentId: Int64, licence: String?, tags: [String]) throws -> Bool {
        try transaction {
            guard let row = try connection.query("select metadata from documents where id = $1 for update", [String(documentId)]).rows.first else {
                return false
            }
            let current = (try? JSONDecoder().decode([String: String].self, from: Data((row[0] ?? "{}").utf8))) ?? [:]
            let labelled = DocumentLabels.applied(current, licence: licence, tags: tags)
            guard labelled != current else { return false }
            try connection.query("update documents set metadata = $1 where id = $2", [LibraryStore.json(labelled), String(documentId)])
            return true
        }
    }
}
