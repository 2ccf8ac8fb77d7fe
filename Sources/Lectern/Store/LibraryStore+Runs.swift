import Foundation
import GRDB

extension LibraryStore {
    /// Starts a run record, with the pid and start time of this process. Runs left `running` by
    /// a process that is gone become `interrupted`.
    func beginRun(command: String, arguments: [String]) throws -> Int64 {
        let process = RunProcess.current
        return try write { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, pid, process_start FROM runs WHERE status = ?", arguments: [RunStatus.running.rawValue]) {
                if Self.isRunning(row), (row["pid"] as Int32?) != process.pid { continue }
                try db.execute(sql: "UPDATE runs SET status = ? WHERE id = ?", arguments: [RunStatus.interrupted.rawValue, row["id"] as Int64])
            }
            try db.execute(sql: "INSERT INTO runs(command, arguments, started_at, status, pid, process_start) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [command, Self.json(arguments), Self.now(), RunStatus.running.rawValue, Int(process.pid), process.startTicks])
            return db.lastInsertedRowID
        }
    }

    /// Whether the process that recorded a `running` row still runs it.
    static func isRunning(_ row: Row) -> Bool {
        guard let pid: Int32 = row["pid"] else { return false }
        return RunProcess(pid: pid, startTicks: row["process_start"]).isAlive
    }

    func updateRun(_ id: Int64, counts: [String: Int], status: RunStatus? = nil) throws {
        try write { db in
            if let status {
                try db.execute(sql: "UPDATE runs SET counts = ?, status = ?, ended_at = ? WHERE id = ?",
                               arguments: [Self.json(counts), status.rawValue, Self.now(), id])
            } else {
                try db.execute(sql: "UPDATE runs SET counts = ? WHERE id = ?", arguments: [Self.json(counts), id])
            }
        }
    }

    func recordFailure(run: Int64, _ failure: RunFailure) throws {
        try write { db in
            try db.execute(sql: "INSERT INTO run_failures(run_id, input, stage, reason, severity, at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [run, failure.input, failure.stage, failure.reason, failure.severity.rawValue, Self.now()])
        }
    }

    /// The newest runs first. A run still marked `running` whose process is gone (or whose pid
    /// now belongs to another program) is listed as `interrupted`.
    /// `id`: that run only (`lectern runs show ID`).
    public func runs(limit: Int = 20, id: Int64? = nil) throws -> [RunRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM runs WHERE ? IS NULL OR id = ? ORDER BY id DESC LIMIT ?", arguments: [id, id, limit]).map { row in
                let id: Int64 = row["id"]
                let failures = try Row.fetchAll(db, sql: "SELECT input, stage, reason, severity FROM run_failures WHERE run_id = ? ORDER BY id", arguments: [id]).map {
                    RunFailure(input: $0["input"], stage: $0["stage"], reason: $0["reason"],
                               severity: try StoredValue.decode($0["severity"], as: FailureSeverity.self))
                }
                let status = try StoredValue.decode(row["status"], as: RunStatus.self)
                let counts = Self.decode([String: Int].self, row["counts"]) ?? [:]
                let outputs = try RunOutputRecord.filter(Column("run_id") == id && Column("written") == true).order(Column("path")).fetchAll(db)
                return RunRecord(
                    id: id, command: row["command"], arguments: Self.decode([String].self, row["arguments"]) ?? [],
                    startedAt: row["started_at"], endedAt: row["ended_at"],
                    status: status == .running && !Self.isRunning(row) ? .interrupted : status,
                    counts: counts, failures: failures, stages: RunStageReport.stages(in: counts),
                    model: ModelUsage(counts: counts), outputs: outputs.map(\.output))
            }
        }
    }

    // MARK: Outputs

    /// Records a file a run wrote (or found as it would write it); `run` nil outside a recorded run.
    func recordOutput(run: Int64?, _ output: RunOutput) throws {
        try write { db in
            var record = RunOutputRecord(run: run, output)
            try record.insert(db)
        }
    }

    /// The newest record of the file at `path`: what it was last made from.
    func latestOutput(path: String) throws -> RunOutput? {
        try read { db in try RunOutputRecord.filter(Column("path") == path).order(Column("id").desc).fetchOne(db)?.output }
    }

    /// The curriculum build key the cards of `curriculum` were last made from.
    func cardsBasis(curriculum: String) throws -> String? {
        try read { db in try CardBasisRecord.fetchOne(db, key: curriculum)?.buildKey }
    }

    func setCardsBasis(curriculum: String, buildKey: String) throws {
        try write { db in try CardBasisRecord(curriculum: curriculum, buildKey: buildKey).upsert(db) }
    }
}
