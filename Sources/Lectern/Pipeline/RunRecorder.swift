import Foundation

/// Records one command's work in the store's `runs` table: counts per stage, each failure
/// with its reason, and how it ended. Every command that does work writes to one.
public final class RunRecorder: @unchecked Sendable {
    let store: LibraryStore
    public let id: Int64
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var seconds: [RunStage: Double] = [:]
    private var model = ModelUsage()
    private var failed = 0
    private var finished = false

    /// `arguments` are recorded through `ArgumentRedaction`: secrets never reach the library.
    public init(store: LibraryStore, command: String, arguments: [String]) throws {
        self.store = store
        self.id = try store.beginRun(command: command, arguments: ArgumentRedaction.redact(arguments))
    }

    public func count(_ name: String, by amount: Int = 1) {
        lock.withLock { counts[name, default: 0] += amount }
    }

    /// Counts what a stage made (shown beside its time).
    func count(_ stage: RunStage, by amount: Int = 1) {
        count(stage.rawValue, by: amount)
    }

    /// Counts one answer of a language model (from the cache or not), its tokens and cost.
    func countModelCall(cached: Bool, inputTokens: Int, outputTokens: Int, costMicroUSD: Int?) {
        lock.withLock { model.add(cached: cached, inputTokens: inputTokens, outputTokens: outputTokens, costMicroUSD: costMicroUSD) }
    }

    /// Counts, the milliseconds spent in each timed stage as `<stage>_ms` and the model's usage
    /// as `llm.*`: the run's counts as the store keeps them.
    public var snapshot: [String: Int] {
        lock.withLock {
            counts.merging(seconds.map { ($0.key.timeKey, Int(($0.value * 1000).rounded())) }) { $1 }.merging(model.counts) { $1 }
        }
    }

    /// Runs one stage of the work (extract, chunk, embed, write), adding its time to the stage's.
    func time<T>(_ stage: RunStage, _ work: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            lock.withLock { seconds[stage, default: 0] += elapsed }
        }
        return try work()
    }

    /// Records a failed input (or a warning, which does not fail the run).
    func fail(input: String, stage: String, reason: String, warning: Bool = false) {
        lock.withLock { if !warning { failed += 1 } }
        try? store.recordFailure(run: id, RunFailure(input: Redaction.urls(in: input), stage: stage, reason: Redaction.urls(in: reason),
                                                     severity: warning ? .warning : .error))
    }

    /// Saves the counts so far (a killed run keeps them).
    func checkpoint() {
        try? store.updateRun(id, counts: snapshot)
    }

    /// Runs a command's work; an error that stops it is recorded as the run's failure and the
    /// run ends `failed` (or `interrupted`, when a signal stopped it) instead of staying `running`.
    public func run<T>(_ work: () throws -> T) throws -> T {
        do {
            let result = try work()
            finish()
            return result
        } catch {
            fail(error, stage: "run")
            finish(status: BatchStop.of(error)?.runStatus ?? .failed)
            throw error
        }
    }

    /// Runs a batch workflow: its run ends the way the batch did (`interrupted` by a signal,
    /// `failed` when the library could not be written), or `failed` with the error that stopped it.
    public func run<T: BatchOutcome>(_ work: () throws -> T) throws -> T {
        do {
            let result = try work()
            finish(result.stopped)
            return result
        } catch {
            fail(error, stage: "run")
            finish(status: BatchStop.of(error)?.runStatus ?? .failed)
            throw error
        }
    }

    /// Records the error that stopped a stage (an interruption is a status, not a failure).
    func fail(_ error: any Error, stage: String, input: String? = nil) {
        let lectern = error as? LecternError
        guard lectern?.code != .interrupted else { return }
        fail(input: input ?? lectern?.subject ?? "", stage: stage, reason: lectern?.located ?? "\(error)")
    }

    /// Ends the run the way a batch ended: `interrupted`, `failed` (the library could not be
    /// written), else `succeeded` or `partial`.
    func finish(_ stop: BatchStop?) {
        finish(status: stop?.runStatus)
    }

    /// Ends the run: `succeeded`, `partial` (some inputs failed) or the given status.
    public func finish(status: RunStatus? = nil) {
        let (done, failures) = lock.withLock { () -> (Bool, Int) in
            defer { finished = true }
            return (finished, failed)
        }
        guard !done else { return }
        try? store.updateRun(id, counts: snapshot, status: status ?? (failures > 0 ? .partial : .succeeded))
    }
}

/// The result of a workflow over a batch, which may end early.
public protocol BatchOutcome {
    var stopped: BatchStop? { get }
}

extension IngestSummary: BatchOutcome {}
