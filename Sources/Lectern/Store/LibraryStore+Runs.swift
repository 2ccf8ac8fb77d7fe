import Foundation
import GRDB

extension LibraryStore {
    /// Starts a run record, with the pid and start time of this process. Runs left `running` by
    /// a process that is gone become `interrupted`.
    func beginRun(command: String, arguments: [String]) throws -> Int64 {
        let process = RunProcess.current
        return try write { db in
            for run in try RunEntryRecord.filter(Column("status") == RunStatus.running.rawValue).fetchAll(db) {
                if run.processIsAlive, run.pid != process.pid { continue }
                try db.execute(sql: "UPDATE runs SET status = ? WHERE id = ?", arguments: [RunStatus.interrupted.rawValue, run.id])
            }
            var run = RunEntryRecord(command: command, arguments: arguments, startedAt: Self.now(), status: .running,
                                     counts: [:], pid: process.pid, processStart: process.startTicks)
            try run.insert(db)
            return db.lastInsertedRowID
        }
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
            var record = RunFailureRecord(runId: run, input: failure.input, stage: failure.stage, reason: failure.reason,
                                          severity: failure.severity, at: Self.now())
            try record.insert(db)
        }
    }

    /// The newest runs first. A run still marked `running` whose process is gone (or whose pid
    /// now belongs to another program) is listed as `interrupted`.
    /// `id`: that run only (`lectern runs show ID`).
    public func runs(limit: Int = 20, id: Int64? = nil) throws -> [RunRecord] {
        try read { db in
            try RunEntryRecord.fetchAll(db, sql: "SELECT * FROM runs WHERE ? IS NULL OR id = ? ORDER BY id DESC LIMIT ?",
                                        arguments: [id, id, limit]).map { run in
                let id = run.id ?? 0
                let failures = try RunFailureRecord.filter(Column("run_id") == id).order(Column("id")).fetchAll(db)
                let outputs = try RunOutputRecord.filter(Column("run_id") == id && Column("written") == true).order(Column("path")).fetchAll(db)
                return RunRecord(
                    id: id, command: run.command, arguments: run.arguments, startedAt: run.startedAt, endedAt: run.endedAt,
                    status: run.status == .running && !run.processIsAlive ? .interrupted : run.status,
                    counts: run.counts, failures: failures.map(\.failure), stages: RunStageReport.stages(in: run.counts),
                    model: ModelUsage(counts: run.counts), outputs: outputs.map(\.output))
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
