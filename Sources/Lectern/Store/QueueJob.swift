import Foundation

/// One job of a queued run (`lectern run --queue`): an input of its plan, or the run's
/// finishing stages, as `lectern runs show` lists it.
public struct QueueJob: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// One input of the plan: a file a path source names (or its folder walk found), or a web source.
        case source
        /// The finishing stages (licences and tags, summaries, curricula, cards, exports), once
        /// every source job is done or failed.
        case finish
    }

    public enum State: String, Codable, Sendable {
        /// A finish job whose run still has source jobs to do.
        case waiting
        case pending
        /// Held by a worker whose lease has not ended (or has, and no worker took it again yet).
        case leased
        case done
        /// Failed `QueueJob.maxFailures` times with an error, or lost its worker `maxLostLeases` times.
        case failed
    }

    /// A job is failed after this many failures with an error (a reader's, a server's).
    public static let maxFailures = 3
    /// A job whose workers were lost this many times while they held it is failed too: an input
    /// that kills its worker (out of memory, a crash) must not take every worker down in turn.
    public static let maxLostLeases = 5

    public var id: Int64
    public var run: Int64
    public var kind: Kind
    public var position: Int
    /// The pipeline source's name, and the input's identity as the plan names it (the file's
    /// absolute path, the web source as written: what `--shard` hashes); nil for a finish job.
    public var source: String?
    public var identity: String?
    public var display: String
    public var foundInFolder: Bool
    public var state: State
    /// host:pid of the worker holding it, while leased.
    public var leaseOwner: String?
    /// Seconds until the lease ends (negative: ended, the worker is gone or stuck).
    public var leaseSecondsLeft: Double?
    public var attempts: Int
    public var failures: Int
    public var lostLeases: Int
    public var lastError: String?
    /// host:pid of the worker that finished it.
    public var doneBy: String?
    public var startedAt: String?
    public var finishedAt: String?
    /// How long its last attempt took (done, failed) or has taken so far (leased).
    public var seconds: Double?
}

/// A queued run's pipeline file, as the planner read it: workers parse the same text, its
/// relative paths resolved against the same folder.
public struct QueuedPipeline: Sendable, Equatable {
    public var run: Int64
    public var name: String
    public var directory: String
    public var text: String
}

/// An input of a queued run's plan, as it is enqueued.
public struct QueueInput: Sendable, Equatable {
    public var source: String
    public var identity: String
    public var display: String
    public var foundInFolder: Bool

    public init(source: String, identity: String, display: String, foundInFolder: Bool) {
        self.source = source
        self.identity = identity
        self.display = display
        self.foundInFolder = foundInFolder
    }
}

/// How a worker ends its attempt at a job.
public enum QueueJobEnd: Sendable {
    /// Done: its counts and the warnings (or failures, for a finish job) it recorded.
    case done(counts: [String: Int], failures: [RunFailure])
    /// Failed this time with `reason`: taken again until it has failed `QueueJob.maxFailures` times.
    case failed(reason: String, counts: [String: Int], failures: [RunFailure])
    /// Given back untouched (a signal stopped the worker first): pending again, not an attempt.
    case released
}

/// What became of a job a worker ended.
public enum QueueJobResult: Sendable, Equatable {
    case done
    /// Failed for good (`final`), or pending again for another attempt.
    case failed(final: Bool)
    case released
    /// The worker's lease had ended and another worker took the job: this attempt counts for nothing.
    case leaseLost
}
