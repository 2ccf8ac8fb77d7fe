import Foundation

/// Times in a recording as people read them: search hits, transcript metadata, `extract`.
public enum TimeFormat {
    /// 754.2 → "00:12:34" (whole seconds, rounded down, so a hit never points past its words).
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        return String(format: "%02d:%02d:%02d", total / 3600, (total / 60) % 60, total % 60)
    }
}
