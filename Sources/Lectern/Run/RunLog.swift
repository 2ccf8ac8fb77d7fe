/// Where a `RunRecorder` writes its run: the library's `runs` and `run_failures` tables
/// (`LibraryStore` is the one log). A protocol here, in the low folder every stage reports
/// through, so that recording a run needs nothing above Model.
protocol RunLog: Sendable {
    /// Starts a run record and returns its id.
    func beginRun(command: String, arguments: [String]) throws -> Int64
    /// Saves the run's counts, and its status when it has ended.
    func updateRun(_ id: Int64, counts: [String: Int], status: RunStatus?) throws
    /// Adds one failed (or warned-about) input to the run.
    func recordFailure(run: Int64, input: String, stage: String, reason: String, severity: FailureSeverity) throws
}
