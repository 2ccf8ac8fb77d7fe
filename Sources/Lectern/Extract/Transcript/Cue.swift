import Foundation

/// One timed piece of a transcript as its file gives it: a caption cue, a JSON turn, a stamped line.
struct Cue: Sendable, Equatable {
    var start: Double
    var end: Double?
    /// The cue's text with markup already removed; line breaks kept.
    var text: String
    var speaker: String?
    /// The 1-based line of the file where the cue starts, for messages.
    var line: Int

    init(start: Double, end: Double? = nil, text: String, speaker: String? = nil, line: Int = 0) {
        self.start = start
        self.end = end
        self.text = text
        self.speaker = speaker
        self.line = line
    }
}
