import Foundation

/// The work queue in a PostgreSQL library (`PostgresSchema.queue`): a queued run's jobs are
/// taken one at a time with `FOR UPDATE SKIP LOCKED` (workers never wait for each other's
/// rows), held with a lease the worker renews, and ended under the run's row lock, so that
/// exactly one worker sees the last source job end and makes the finish job takeable.
extension PostgresLibrary {
    /// A job's columns as `QueueJob` reads them; times in UTC as the run record writes them.
    private static let jobColumns = """
        id, run_id as "run", kind, position, source, identity, display, found_in_folder as "foundInFolder", state,
        lease_owner as "leaseOwner", extract(epoch from lease_expires - now())::float8 as "leaseSecondsLeft", attempts,
        failures, lost_leases as "lostLeases", last_error as "lastError", done_by as "doneBy",
        to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "startedAt",
        to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "finishedAt",
        coalesce(seconds, case when state = 'leased' then extract(epoch from clock_timestamp() - started_at)::float8 end) as seconds
        """

    /// Records a queued run (its record `queued` in `runs`, its pipeline's text) and its jobs:
    /// one per input, and the finish job, waiting for them. One transaction: a plan is
    /// enqueued whole or not at all.
    func enqueueRun(command: String, arguments: [String], pipeline: QueuedPipeline, inputs: [QueueInput],
                    counts: [String: Int]) throws -> Int64 {
        let process = RunProcess.current
        return try transaction {
            let id = try connection.query("""
                insert into runs (command, arguments, started_at, status, counts, pid, process_start)
                values ($1, $2, $3, $4, $5, $6, $7) returning id
                """, [command, LibraryStore.json(arguments), LibraryStore.now(), RunStatus.queued.rawValue, LibraryStore.json(counts),
                      String(process.pid), process.startTicks.map(String.init)]).scalar ?? "0"
            try connection.query("""
                insert into queue_runs (run_id, pipeline_name, pipeline_directory, pipeline_text) values ($1, $2, $3, $4)
                """, [id, pipeline.name, pipeline.directory, pipeline.text])
            // Thousands of inputs a statement, as arrays (one round trip each).
            for start in stride(from: 0, to: inputs.count, by: 5_000) {
                let chunk = Array(inputs[start..<min(start + 5_000, inputs.count)])
                try connection.query("""
                    insert into queue_jobs (run_id, kind, position, source, identity, display, found_in_folder, state)
                    select $1, 'source', p, s, i, d, f, 'pending'
                    from unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::boolean[]) as t(p, s, i, d, f)
                    on conflict (run_id, kind, identity) do nothing
                    """, [id, "{" + chunk.indices.map { String(start + $0 - chunk.startIndex + 1) }.joined(separator: ",") + "}",
                          Self.textArray(chunk.map(\.source)), Self.textArray(chunk.map(\.identity)),
                          Self.textArray(chunk.map(\.display)), "{" + chunk.map { $0.foundInFolder ? "t" : "f" }.joined(separator: ",") + "}"])
            }
            try connection.query("""
                insert into queue_jobs (run_id, kind, position, display, state) values ($1, 'finish', $2, $3, $4)
                """, [id, String(inputs.count + 1), "finishing stages", inputs.isEmpty ? "pending" : "waiting"])
            return Int64(id) ?? 0
        }
    }

    /// Takes the oldest job no live worker holds (pending, or leased with its lease ended)
    /// for `owner`, for `lease` seconds; nil when there is none. A job whose workers were lost
    /// `QueueJob.maxLostLeases` times is failed instead of taken again.
    func takeJob(owner: String, lease: Double) throws -> QueueJob? {
        while true {
            let taken: (job: QueueJob, lostBy: String?)? = try transaction {
                // A data-modifying WITH must be the statement itself (not `records`' subquery).
                let rows = try connection.query("""
                    with candidate as (
                        select id, state as was, lease_owner as previous from queue_jobs
                        where state = 'pending' or (state = 'leased' and lease_expires < now())
                        order by id limit 1 for update skip locked),
                    taken as (
                        update queue_jobs j set state = 'leased', lease_owner = $1,
                            lease_expires = now() + make_interval(secs => $2::float8), attempts = j.attempts + 1,
                            lost_leases = j.lost_leases + (case when c.was = 'leased' then 1 else 0 end),
                            started_at = clock_timestamp(), seconds = null
                        from candidate c where j.id = c.id returning j.id)
                    select taken.id, c.was, c.previous from taken join candidate c on c.id = taken.id
                    """, [owner, String(lease)]).rows
                guard let row = rows.first, let id = row[0] else { return nil }
                let job = try connection.records(QueueJob.self, "select \(Self.jobColumns) from queue_jobs where id = $1", [id])[0]
                return (job, row[1] == "leased" ? row[2] : nil)
            }
            guard let taken else { return nil }
            guard taken.job.lostLeases >= QueueJob.maxLostLeases else { return taken.job }
            let reason = "its worker was lost \(taken.job.lostLeases) times while it held this job (last \(taken.lostBy ?? "unknown"): "
                + "killed, out of memory or its machine gone): the input may stop any worker that reads it"
            _ = try endJob(taken.job.id, owner: owner, .failed(reason: reason, counts: [:], failures: []), final: true)
        }
    }

    /// Moves the lease on by `lease` seconds from now; false when `owner` no longer holds it.
    func renewLease(job: Int64, owner: String, lease: Double) throws -> Bool {
        try session {
            try connection.query("""
                update queue_jobs set lease_expires = now() + make_interval(secs => $3::float8)
                where id = $1 and state = 'leased' and lease_owner = $2
                """, [String(job), owner, String(lease)]).affected == 1
        }
    }

    /// Ends `owner`'s attempt at a job. Under the run's row lock: of two workers ending a run's
    /// last two source jobs at once, the second sees the first's end, and makes the finish job
    /// takeable. The finish job's end ends the run's record.
    func endJob(_ id: Int64, owner: String, _ end: QueueJobEnd, final forced: Bool = false) throws -> QueueJobResult {
        try transaction {
            guard let run = try connection.query("select run_id from queue_jobs where id = $1", [String(id)]).scalar else { return .leaseLost }
            try connection.query("select 1 from queue_runs where run_id = $1 for update", [run])
            guard let row = try connection.query("""
                select kind, failures, display from queue_jobs where id = $1 and state = 'leased' and lease_owner = $2 for update
                """, [String(id), owner]).rows.first else { return .leaseLost }
            let kind = row[0] ?? "source", failures = Int(row[1] ?? "0") ?? 0, display = row[2] ?? ""
            let result: QueueJobResult
            switch end {
            case .released:
                try connection.query("""
                    update queue_jobs set state = 'pending', lease_owner = null, lease_expires = null, attempts = attempts - 1,
                        started_at = null where id = $1
                    """, [String(id)])
                return .released
            case .done(let counts, let recorded):
                try connection.query("""
                    update queue_jobs set state = 'done', lease_owner = null, lease_expires = null, done_by = $2, counts = $3,
                        finished_at = now(), seconds = extract(epoch from clock_timestamp() - started_at) where id = $1
                    """, [String(id), owner, LibraryStore.json(counts)])
                try addToRun(run, counts: counts, failures: recorded)
                result = .done
            case .failed(let reason, let counts, let recorded):
                let forGood = forced || failures + 1 >= QueueJob.maxFailures
                try connection.query("""
                    update queue_jobs set state = $2::text, lease_owner = null, lease_expires = null, failures = failures + 1,
                        last_error = $3, done_by = case when $2::text = 'failed' then $4::text end,
                        finished_at = case when $2::text = 'failed' then now() end,
                        seconds = extract(epoch from clock_timestamp() - started_at) where id = $1
                    """, [String(id), forGood ? "failed" : "pending", reason, owner])
                if forGood {
                    // Its reason in the run's failures; the counts of a finish job that failed part way.
                    let failure = RunFailure(input: display, stage: kind == "finish" ? "finish" : "ingest",
                                             reason: "failed \(forced ? "" : "\(failures + 1) times, ")for good: \(reason)", severity: .error)
                    try addToRun(run, counts: counts.merging(["failed_jobs": 1]) { $0 + $1 }, failures: recorded.filter { $0.severity != .error } + [failure])
                }
                result = .failed(final: forGood)
            }
            guard result == .done || result == .failed(final: true) else { return result }
            if kind == "source" {
                try connection.query("""
                    update queue_jobs set state = 'pending' where run_id = $1 and kind = 'finish' and state = 'waiting'
                        and not exists (select 1 from queue_jobs where run_id = $1 and kind = 'source' and state in ('pending', 'leased'))
                    """, [run])
            } else {
                let failed = try connection.query("""
                    select exists (select 1 from queue_jobs where run_id = $1 and state = 'failed')
                        or exists (select 1 from run_failures where run_id = $1 and severity = $2)
                    """, [run, FailureSeverity.error.rawValue]).scalar == "t"
                let status: RunStatus = result == .done ? (failed ? .partial : .succeeded) : .failed
                try connection.query("update runs set status = $2, ended_at = $3 where id = $1", [run, status.rawValue, LibraryStore.now()])
                try connection.query("update queue_runs set finished_at = now() where run_id = $1", [run])
            }
            return result
        }
    }

    /// Adds a job's counts to its run's (inside `endJob`'s transaction, under the run's row
    /// lock), and its failures and warnings to the run's. The plan's size is the planner's.
    private func addToRun(_ run: String, counts: [String: Int], failures: [RunFailure]) throws {
        let current = LibraryStore.decode([String: Int].self, try connection.query("select counts from runs where id = $1 for update", [run]).scalar) ?? [:]
        let added = current.merging(counts.filter { $0.key != "pipeline_sources" }) { $0 + $1 }
        if added != current { try connection.query("update runs set counts = $2 where id = $1", [run, LibraryStore.json(added)]) }
        for failure in failures {
            try connection.query("""
                insert into run_failures (run_id, input, stage, reason, severity, at) values ($1, $2, $3, $4, $5, $6)
                """, [run, failure.input, failure.stage, failure.reason, failure.severity.rawValue, LibraryStore.now()])
        }
    }

    /// Whether any job of any run is pending or leased (a lease that ended counts: its job is
    /// not done until another worker takes and finishes it).
    func queueHasWork() throws -> Bool {
        try session {
            guard try connection.query("select to_regclass('queue_jobs') is not null").scalar == "t" else { return false }
            return try connection.query("select exists (select 1 from queue_jobs where state in ('pending', 'leased'))").scalar == "t"
        }
    }

    /// A queued run's jobs in the plan's order (none for a run that was not queued).
    func queueJobs(run: Int64) throws -> [QueueJob] {
        try session {
            guard try connection.query("select to_regclass('queue_jobs') is not null").scalar == "t" else { return [] }
            return try connection.records(QueueJob.self, "select \(Self.jobColumns) from queue_jobs where run_id = $1 order by id", [String(run)])
        }
    }

    /// The pipeline a queued run was planned from.
    func queuedPipeline(run: Int64) throws -> QueuedPipeline? {
        try session {
            try connection.query("select pipeline_name, pipeline_directory, pipeline_text from queue_runs where run_id = $1", [String(run)])
                .rows.first.map { QueuedPipeline(run: run, name: $0[0] ?? "", directory: $0[1] ?? "", text: $0[2] ?? "") }
        }
    }
}
