import Foundation

/// What a worker did before it stopped.
public struct QueueWorkerSummary: Codable, Sendable, Equatable {
    /// Jobs done, failed (this attempt: the job may be tried again), given back at a signal,
    /// and ended after another worker had taken them over (their lease had run out).
    public var done = 0
    public var failed = 0
    public var released = 0
    public var leaseLost = 0
    public var stopped: BatchStop?
}

/// `lectern worker`: takes the jobs of queued runs (`lectern run --queue`) one at a time from a
/// library on PostgreSQL, holding each with a lease it renews in the background, and does each
/// exactly as `lectern run` does that input (`PipelineRun` with `input`: the same ingest, the
/// same skip keys) or, for a run's finish job, its finishing stages under the library's run
/// lock. Source jobs take no run lock: any number of workers write documents side by side.
public struct QueueWorker: Sendable {
    /// The library's URL.
    public var location: String
    /// Configuration flags above each queued pipeline's settings (the library's URL).
    public var flags: [String: ConfigValue]
    /// host:pid, as `runs show` names the worker.
    public var owner: String
    /// Seconds a lease lasts without being renewed (renewed every third of it).
    public var lease: Double
    /// Stop once no job of any run is pending or leased, instead of waiting for more.
    public var exitWhenIdle = false
    /// Seconds between looks at the queue while it has nothing to take.
    public var poll = 0.5
    public var cancellation: Cancellation?

    public init(location: String, lease: Double, owner: String = QueueWorker.defaultOwner()) {
        self.location = location
        self.flags = ["database": .string(location)]
        self.lease = lease
        self.owner = owner
    }

    /// host:pid of this process.
    public static func defaultOwner() -> String {
        "\(ProcessInfo.processInfo.hostName):\(getpid())"
    }

    /// A queued run as a worker does its jobs: its pipeline read once, its embedder loaded once.
    private struct Prepared {
        var run: Int64
        var work: PipelineRun
        var embedder: any Embedder
    }

    /// Takes and does jobs until stopped (a signal: the job in hand is finished, or abandoned
    /// and given back), or with `exitWhenIdle` until no job is pending or leased. Throws when
    /// the server cannot be reached (the job in hand goes to another worker when its lease ends).
    public func run(events: @escaping EventHandler) throws -> QueueWorkerSummary {
        // Two sessions: the work's (documents, curricula, the run lock) and the queue's, which
        // the lease is renewed on while the work holds the other in a transaction.
        let library = try Library.open(location, access: .create)
        let queue = try Library.open(location, access: .write)
        var prepared: Prepared?
        var summary = QueueWorkerSummary()
        while true {
            if cancellation?.isCancelled == true {
                summary.stopped = .interrupted
                break
            }
            guard let job = try queue.takeJob(owner: owner, lease: lease) else {
                if exitWhenIdle, try !queue.queueHasWork() { break }
                idle()
                continue
            }
            events(PipelineEvent(.note, input: job.display,
                                 message: "job \(job.id) of run #\(job.run) taken" + (job.attempts > 1 ? " (attempt \(job.attempts))" : ""), run: job.run))
            let (owner, lease, display) = (owner, lease, job.display)
            let keeper = LeaseKeeper(every: lease / 3) {
                // A server that does not answer for a moment: try again at the next turn.
                guard let held = try? queue.renewLease(job: job.id, owner: owner, lease: lease) else { return true }
                if !held { events(PipelineEvent(.warning, input: display, message: "lease lost: another worker took this job over")) }
                return held
            }
            let started = Date()
            let end: QueueJobEnd
            do {
                if prepared?.run != job.run { prepared = nil }
                let ready = try prepared ?? prepare(run: job.run, queue: queue, library: library)
                prepared = ready
                end = try perform(job, ready, library: library, events: events)
            } catch {
                end = Self.end(of: error)
            }
            keeper.stop()
            let result = try queue.endJob(job.id, owner: owner, end)
            let took = String(format: "%.1f s", Date().timeIntervalSince(started))
            switch (result, end) {
            case (.done, _):
                summary.done += 1
                events(PipelineEvent(.note, input: job.display, message: "job \(job.id) done in \(took)", run: job.run))
            case (.failed(let forGood), .failed(let reason, _, _)):
                summary.failed += 1
                let what = forGood ? "failed for good" : "failed (attempt \(job.failures + 1) of \(QueueJob.maxFailures))"
                events(PipelineEvent(.failed, input: job.display, message: "job \(job.id) \(what): \(reason)", run: job.run))
            case (.released, _):
                summary.released += 1
                events(PipelineEvent(.note, input: job.display, message: "job \(job.id) given back: another worker takes it", run: job.run))
            default:
                summary.leaseLost += 1
                events(PipelineEvent(.warning, input: job.display,
                                     message: "job \(job.id) ended after its lease ran out and another worker took it: this attempt counts for nothing",
                                     run: job.run))
            }
        }
        return summary
    }

    /// Waits `poll` seconds, looking at the cancellation every tenth of a second.
    private func idle() {
        let until = Date().addingTimeInterval(poll)
        while Date() < until, cancellation?.isCancelled != true { Thread.sleep(forTimeInterval: min(0.1, poll)) }
    }

    /// The queued run's pipeline as the planner read it (its text, relative paths against its
    /// folder), with this worker's configuration layers around it and the library's embedder.
    private func prepare(run: Int64, queue: Library, library: Library) throws -> Prepared {
        guard let queued = try queue.queuedPipeline(run: run) else {
            throw LecternError(.notFound, "run \(run)", "the library holds no pipeline for this queued run")
        }
        let pipeline = try PipelineFile(text: queued.text, name: queued.name, directory: queued.directory)
        let configuration = try Configuration.load(pipelineFile: pipeline.settings, flags: flags)
        var work = PipelineRun(pipeline: pipeline, configuration: configuration, jobs: 1)
        work.cancellation = cancellation
        return Prepared(run: run, work: work, embedder: try EmbedderCatalog.resolve(library: library, configuration: configuration))
    }

    /// Does one job as `lectern run` does that part of the run, recording into the job's own
    /// log (`QueueJobLog`), which its end hands to the queue.
    private func perform(_ job: QueueJob, _ ready: Prepared, library: Library, events: @escaping EventHandler) throws -> QueueJobEnd {
        let log = QueueJobLog(run: job.run)
        let recorder = try RunRecorder(log: log, command: "worker", arguments: [])
        var work = ready.work
        let summary: PipelineRunSummary
        switch job.kind {
        case .source:
            guard let source = job.source, work.pipeline.sources.contains(where: { $0.name == source }), let identity = job.identity else {
                throw LecternError(.configuration, ready.work.pipeline.path, "the queued pipeline has no source named '\(job.source ?? "")'")
            }
            work.input = PipelineInput(source: source, identity: identity, display: job.display, foundInFolder: job.foundInFolder)
            summary = work.run(library: library, embedder: ready.embedder, recorder: recorder, events: events)
        case .finish:
            work.finishOnly = true
            // Once, under the run lock: a `lectern run` of the same library waits for it, and it for the run.
            summary = try library.withWriterLock(wait: true, cancellation: cancellation, waiting: { holder in
                events(PipelineEvent(.note, input: job.display, message: "another run (\(holder?.description ?? "pid unknown")) holds the run lock: waiting"))
            }) { _ in
                work.run(library: library, embedder: ready.embedder, recorder: recorder, events: events)
            }
        }
        if summary.stopped == .interrupted { return .released }
        let counts = recorder.snapshot
        // A finish job's failures (a curriculum that could not be built) are the run's, as in
        // `lectern run`: the job is done. A source that failed is tried again.
        if job.kind == .source, summary.failed > 0 || summary.stopped != nil {
            let reason = log.failures.last { $0.severity == .error }?.reason ?? summary.stopped?.rawValue ?? "failed"
            return .failed(reason: reason, counts: counts, failures: log.failures)
        }
        return .done(counts: counts, failures: log.failures)
    }

    /// An error that stopped a job before or outside its work: a signal gives it back; anything
    /// else (a pipeline a worker cannot read, a missing model) is a failed attempt.
    private static func end(of error: any Error) -> QueueJobEnd {
        if BatchStop.of(error) == .interrupted { return .released }
        let reason = (error as? LecternError)?.description ?? "\(error)"
        return .failed(reason: reason, counts: [:], failures: [])
    }
}
