import Foundation

/// Where a worker's `RunRecorder` writes one job's work: kept in memory, then handed to the
/// queue with the job's end (`Library.endJob`), which adds the counts to the queued run's and
/// records its failures there. So an attempt that fails and is tried again leaves nothing in the
/// run's failures, and workers never overwrite each other's counts.
final class QueueJobLog: RunLog {
    let run: Int64
    private let kept = Locked((counts: [String: Int](), failures: [RunFailure]()))

    init(run: Int64) {
        self.run = run
    }

    /// The queued run's number: the job's work is part of that run.
    func beginRun(command: String, arguments: [String]) throws -> Int64 { run }

    func updateRun(_ id: Int64, counts: [String: Int], status: RunStatus?) throws {
        kept.withLock { $0.counts = counts }
    }

    func recordFailure(run: Int64, input: String, stage: String, reason: String, severity: FailureSeverity) throws {
        kept.withLock { $0.failures.append(RunFailure(input: input, stage: stage, reason: reason, severity: severity)) }
    }

    var counts: [String: Int] { kept.current.counts }
    var failures: [RunFailure] { kept.current.failures }
}
