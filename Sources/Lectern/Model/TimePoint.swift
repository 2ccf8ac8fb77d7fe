import Foundation

/// A moment inside a text: the character `offset` where words said at `seconds` begin. A
/// transcript sentence spanning several cues holds one per cue, so that a search hit can name
/// the cue its words are said in. Encoded as the pair `[offset, seconds]`, as stored.
struct TimePoint: Sendable, Equatable {
    var offset: Int
    var seconds: Double

    /// When the text at `offset` is said: the last point at or before it (the first point when
    /// none is); nil for an empty timeline.
    static func time(in timeline: [TimePoint], atOffset offset: Int) -> Double? {
        guard var best = timeline.first?.seconds else { return nil }
        for point in timeline where point.offset <= offset { best = point.seconds }
        return best
    }

    /// The points of `timeline` within `from..<from+length`, relative to `from`, led by the
    /// point in force at `from`: the timeline of a piece cut out of the text.
    static func slice(_ timeline: [TimePoint], from: Int, length: Int) -> [TimePoint] {
        guard !timeline.isEmpty else { return [] }
        var result: [TimePoint] = []
        if let before = timeline.last(where: { $0.offset <= from }) { result.append(TimePoint(offset: 0, seconds: before.seconds)) }
        for point in timeline where point.offset > from && point.offset < from + length {
            result.append(TimePoint(offset: point.offset - from, seconds: point.seconds))
        }
        return result
    }
}

// The coding lives in an extension so that the memberwise initialiser stays.
extension TimePoint: Codable {
    init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        offset = Int(try pair.decode(Double.self))
        seconds = try pair.decode(Double.self)
    }

    func encode(to encoder: any Encoder) throws {
        var pair = encoder.unkeyedContainer()
        try pair.encode(Double(offset))
        try pair.encode(seconds)
    }
}
