import Foundation

/// A cue the reader could not use, and why: reported as a warning, or as the error when no
/// cue of the file is usable.
struct BadCue: Sendable, Equatable {
    /// The 1-based line of the file; nil where the format has no lines to name (JSON turns
    /// say which turn in `reason`).
    var line: Int?
    var reason: String

    init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }
}
