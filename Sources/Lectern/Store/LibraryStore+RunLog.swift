/// The library is where runs are recorded.
extension LibraryStore: RunLog {
    func recordFailure(run: Int64, input: String, stage: String, reason: String, severity: FailureSeverity) throws {
        try recordFailure(run: run, RunFailure(input: input, stage: stage, reason: reason, severity: severity))
    }
}

extension RunRecorder {
    /// Records the run in `store`'s `runs` table.
    public convenience init(store: LibraryStore, command: String, arguments: [String]) throws {
        try self.init(log: store, command: command, arguments: arguments)
    }
}
