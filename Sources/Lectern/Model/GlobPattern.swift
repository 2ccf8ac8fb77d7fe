import Foundation

/// The shell's glob characters: a path or reference holding one of `*`, `?`, `[` is a pattern,
/// read by ingest, `rm`, `summarize`, pipelines and protected paths alike.
enum GlobPattern {
    static func isPattern<S: StringProtocol>(_ text: S) -> Bool {
        text.contains { "*?[".contains($0) }
    }
}
