import Foundation

/// The work queue of a library on PostgreSQL (`lectern run --queue`, `lectern worker`): what
/// the planner enqueues and the workers take, lease and end. A library file has none: it has
/// one writer, and `--queue` is refused there in one line.
extension Library {
    /// Whether this library can hold a work queue (a library on PostgreSQL).
    public var keepsQueue: Bool { backend is PostgresLibrary }

    private func queueBackend(_ what: String) throws -> PostgresLibrary {
        if let postgres = backend as? PostgresLibrary { return postgres }
        throw LecternError(.unsupported, display, "\(what) needs a library on PostgreSQL, which workers on several machines share; "
                           + "a library file has one writer: run the pipeline without --queue")
    }

    /// Records a queued run and its jobs in one transaction; returns the run's number.
    public func enqueueRun(command: String, arguments: [String], pipeline: QueuedPipeline, inputs: [QueueInput],
                           counts: [String: Int]) throws -> Int64 {
        try translated {
            try queueBackend("--queue").enqueueRun(command: command, arguments: ArgumentRedaction.redact(arguments), pipeline: pipeline,
                                                   inputs: inputs, counts: counts)
        }
    }

    /// The oldest job no live worker holds, now leased to `owner` for `lease` seconds.
    public func takeJob(owner: String, lease: Double) throws -> QueueJob? {
        try translated { try queueBackend("lectern worker").takeJob(owner: owner, lease: lease) }
    }

    /// Moves `owner`'s lease on a job `lease` seconds on; false when another worker holds it now.
    public func renewLease(job: Int64, owner: String, lease: Double) throws -> Bool {
        try translated { try queueBackend("lectern worker").renewLease(job: job, owner: owner, lease: lease) }
    }

    /// Ends `owner`'s attempt at a job.
    public func endJob(_ id: Int64, owner: String, _ end: QueueJobEnd) throws -> QueueJobResult {
        try translated { try queueBackend("lectern worker").endJob(id, owner: owner, end) }
    }

    /// Whether a job of any run is pending or leased.
    public func queueHasWork() throws -> Bool {
        try translated { try queueBackend("lectern worker").queueHasWork() }
    }

    /// A run's jobs in the plan's order; none for a run that was not queued, or a library file.
    public func queueJobs(run: Int64) throws -> [QueueJob] {
        guard let postgres = backend as? PostgresLibrary else { return [] }
        return try translated { try postgres.queueJobs(run: run) }
    }

    /// The pipeline file a queued run was planned from.
    public func queuedPipeline(run: Int64) throws -> QueuedPipeline? {
        try translated { try queueBackend("lectern worker").queuedPipeline(run: run) }
    }
}
