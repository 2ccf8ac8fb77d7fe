/// How a recorded run stands or ended.
public enum RunStatus: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case running
    /// Planned with `lectern run --queue`: its jobs are being done by workers (`lectern worker`);
    /// the worker that ends its finish job ends it.
    case queued
    case succeeded
    /// Some inputs failed, the others were done.
    case partial
    /// An error stopped the command.
    case failed
    /// Left `running` by a process that is gone.
    case interrupted

    public var description: String { rawValue }
}
