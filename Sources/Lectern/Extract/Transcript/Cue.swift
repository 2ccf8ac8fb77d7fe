import Foundation

/// One timed piece of a transcript as its file gives it: a caption cue, a JSON turn, a stamped line.
public struct Cue: Sendable, Equatable {
    public var start: Double
    public var end: Double?
    /// The cue's text with markup already removed; line breaks kept.
    public var text: String
    public var speaker: String?
    /// The 1-based line of the file where the cue starts, for messages.
    public var line: Int

    public init(start: Double, end: Double? = nil, text: String, speaker: String? = nil, line: Int = 0) {
        self.start = start
        self.end = end
        self.text = text
        self.speaker = speaker
        self.line = line
    }
}
