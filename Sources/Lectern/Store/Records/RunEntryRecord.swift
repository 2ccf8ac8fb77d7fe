import Foundation

/// A `runs` row. `RunRecord` is the run as `lectern runs` reports it, with its failures,
/// stages and outputs.
struct RunEntryRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var command: String
    /// A JSON array, secrets as `***`.
    var arguments: [String]
    var startedAt: String
    var endedAt: String?
    var status: RunStatus
    /// A JSON object (`{}` until the run first counts something).
    var counts: [String: Int]
    /// The process that recorded the run, to tell a run still going from one whose process is gone.
    var pid: Int32?
    var processStart: Int64?

    enum CodingKeys: String, CodingKey {
        case id, command, arguments, startedAt = "started_at", endedAt = "ended_at", status, counts, pid
        case processStart = "process_start"
    }

    /// Whether the process that recorded a `running` row still runs it.
    var processIsAlive: Bool {
        guard let pid else { return false }
        return RunProcess(pid: pid, startTicks: processStart).isAlive
    }
}

/// A `run_failures` row: an input that failed (or warned) in a run.
struct RunFailureRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var runId: Int64
    var input: String
    var stage: String
    var reason: String
    var severity: FailureSeverity
    var at: String

    enum CodingKeys: String, CodingKey {
        case id, runId = "run_id", input, stage, reason, severity, at
    }

    var failure: RunFailure {
        RunFailure(input: input, stage: stage, reason: reason, severity: severity)
    }
}
