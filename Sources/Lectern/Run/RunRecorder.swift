import Foundation

/// Records one command's work in a `RunLog` (the library's `runs` table): counts per stage, each failure
/// with its reason, and how it ended. Every command that does work writes to one.
public final class RunRecorder: Sendable {
    let log: any RunLog
    public let id: Int64
    private struct Tally {
        var counts: [String: Int] = [:]
        var seconds: [RunStage: Double] = [:]
        var model = ModelUsage()
        var failed = 0
        var finished = false
    }
    private let tally = Locked(Tally())

    /// `arguments` are recorded through `ArgumentRedaction`: secrets never reach the library.
    init(log: any RunLog, command: String, arguments: [String]) throws {
        self.log = log
        self.id = try log.beginRun(command: command, arguments: ArgumentRedaction.redact(arguments))
    }

    public func count(_ name: String, by amount: Int = 1) {
        tally.withLock { $0.counts[name, default: 0] += amount }
    }

    /// Counts what a stage made (shown beside its time).
    func count(_ stage: RunStage, by amount: Int = 1) {
        count(stage.rawValue, by: amount)
    }

    /// Counts one answer of a language model (from the cache or not), its tokens and cost.
    func countModelCall(cached: Bool, inputTokens: Int, outputTokens: Int, costMicroUSD: Int?) {
        tally.withLock { $0.model.add(cached: cached, inputTokens: inputTokens, outputTokens: outputTokens, costMicroUSD: costMicroUSD) }
    }

    /// Counts, the milliseconds spent in each timed stage as `<stage>_ms` and the model's usage
    /// as `llm.*`: the run's counts as the store keeps them.
    public var snapshot: [String: Int] {
        tally.withLock { tally in
            tally.counts.merging(tally.seconds.map { ($0.key.timeKey, Int(($0.value * 1000).rounded())) }) { $1 }.merging(tally.model.counts) { $1 }
        }
    }

    /// Runs one stage of the work (extract, chunk, embed, write), adding its time to the stage's.
    func time<T>(_ stage: RunStage, _ work: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            tally.withLock { $0.seconds[stage, default: 0] += elapsed }
        }
        return try work()
    }

    /// Records a failed input (or a warning, which does not fail the run).
    func fail(input: String, stage: String, reason: String, warning: Bool = false) {
        tally.withLock { if !warning { $0.failed += 1 } }
        try? log.recordFailure(run: id, input: Redaction.urls(in: input), stage: stage, reason: Redaction.urls(in: reason),
                               severity: warning ? .warning : .error)
    }

    /// Saves the counts so far (a killed run keeps them).
    func checkpoint() {
        try? log.updateRun(id, counts: snapshot, status: nil)
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
        let (done, failures) = tally.withLock { tally -> (Bool, Int) in
            defer { tally.finished = true }
            return (tally.finished, tally.failed)
        }
        guard !done else { return }
        try? log.updateRun(id, counts: snapshot, status: status ?? (failures > 0 ? .partial : .succeeded))
    }
}

/// The result of a workflow over a batch, which may end early.
public protocol BatchOutcome {
    var stopped: BatchStop? { get }
}

