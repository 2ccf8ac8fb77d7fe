import Foundation

/// The process that records a run: its pid and its start time in clock ticks since boot
/// (`/proc/PID/stat`, field 22). A pid alone is reused; the pair names one process.
struct RunProcess: Equatable {
    var pid: Int32
    var startTicks: Int64?

    static var current: RunProcess { RunProcess(pid: getpid(), startTicks: startTicks(of: getpid())) }

    /// Whether this process still runs: its pid is alive and, when its start time was recorded,
    /// is the same process (not another program that got the pid since).
    var isAlive: Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let startTicks else { return true }
        return Self.startTicks(of: pid) == startTicks
    }

    /// Field 22 of `/proc/PID/stat`, read after the command name (which may hold spaces and
    /// parentheses).
    static func startTicks(of pid: Int32) -> Int64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        return fields.count > 19 ? Int64(fields[19]) : nil
    }
}
