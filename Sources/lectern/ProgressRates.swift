import Foundation

/// The rate and the time left of each progress counter (inputs of a batch, passages of a
/// document being embedded), measured from when the counter was first seen.
struct ProgressRates {
    private var started: [String: (time: TimeInterval, done: Int)] = [:]

    /// ` 12.5/s, 0:42 left` for `done` of `total`, once there is something to measure.
    mutating func pace(of counter: String, done: Int, total: Int, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> String {
        guard let first = started[counter], done >= first.done else {
            started[counter] = (now, done)
            return ""
        }
        let elapsed = now - first.time, made = done - first.done
        guard elapsed > 0.5, made > 0 else { return "" }
        let rate = Double(made) / elapsed
        let left = Double(max(0, total - done)) / rate
        return " " + Self.rate(rate) + ", " + Self.duration(left) + " left"
    }

    /// ` 42%, 1:05 left` for a batch `done` of `total` bytes of input along (` 1:05 left` when
    /// `brief`), once there is something to measure.
    mutating func batchPace(done: Int, total: Int, brief: Bool = false, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> String {
        guard total > 0 else { return "" }
        let percent = brief ? "" : " \(min(100, done * 100 / total))%"
        guard let first = started["batch"], done >= first.done else {
            started["batch"] = (now, done)
            return percent
        }
        let elapsed = now - first.time, made = done - first.done
        guard elapsed > 0.5, made > 0 else { return percent }
        let left = Double(max(0, total - done)) / (Double(made) / elapsed)
        return (brief ? "" : percent + ",") + " " + Self.duration(left) + " left"
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 10 ? String(format: "%.0f/s", perSecond) : perSecond >= 1 ? String(format: "%.1f/s", perSecond)
            : String(format: "%.1f/min", perSecond * 60)
    }

    /// `0:42`, `12:05`, `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let (hours, minutes, secs) = (whole / 3600, whole % 3600 / 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
