import Foundation

/// A JSON transcript: an array of turns `{speaker, text | transcript, start, end}` (times in
/// seconds or as `hh:mm:ss.mmm` strings), or an object whose `segments` (Whisper's output) or
/// `turns` hold them.
struct TranscriptJSONExtractor: Extractor {
    let name = "transcript-json"
    let version = 2  // 2: voices split, sounds on blocks, OCW-proven rolling rules

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, let first = input.data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }),
              first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else { return 0 }
        // Cheap first: a transcript names its times near the top; other JSON (a 3 MB course) is
        // not parsed just to be turned down.
        // (Whisper's output puts the whole text first, so the keys are searched as bytes, not in a prefix.)
        func has(_ key: String) -> Bool { input.data.range(of: Data(key.utf8)) != nil }
        guard has("\"start"), first == UInt8(ascii: "[") || ["\"segments\"", "\"turns\"", "\"utterances\"", "\"transcript\""].contains(where: has),
              !has("\"course_pages\"") else { return 0 }
        guard input.data.count <= 64 << 20, let turns = try? Self.turns(input.data), !turns.isEmpty else { return 0 }
        let usable = turns.filter { ($0["start"] != nil || $0["start_time"] != nil) && Self.text(of: $0) != nil }
        return usable.count * 2 >= turns.count ? 90 : 0
    }

    static func turns(_ data: Data) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: data)
        if let array = json as? [[String: Any]] { return array }
        if let object = json as? [String: Any] {
            for key in ["segments", "turns", "utterances", "transcript"] {
                if let array = object[key] as? [[String: Any]] { return array }
            }
        }
        return []
    }

    static func text(of turn: [String: Any]) -> String? {
        (turn["text"] ?? turn["transcript"] ?? turn["content"]) as? String
    }

    static func speaker(_ value: Any?) -> String? {
        let name: String
        switch value {
        case let string as String: name = string.trimmingCharacters(in: .whitespaces)
        case let number as NSNumber: name = "Speaker \(number)"
        default: return nil
        }
        return name.isEmpty ? nil : name
    }

    /// Seconds from a number or a time string; nil for anything that is not a time in a
    /// recording (negative, infinite, or beyond 1000 hours).
    static func time(_ value: Any?) -> Double? {
        let seconds: Double?
        switch value {
        // JSON's true/false arrive as NSNumber too, with the type code of a char.
        case let number as NSNumber where String(cString: number.objCType) != "c": seconds = number.doubleValue
        case let string as String: seconds = Double(string.trimmingCharacters(in: .whitespaces)) ?? TimeCode.parse(string)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 3_600_000 else { return nil }
        return seconds
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let turns: [[String: Any]]
        do {
            turns = try Self.turns(input.data)
        } catch {
            throw LecternError(.corrupt, nil, "not valid JSON")
        }
        var cues: [Cue] = []
        var bad: [BadCue] = []
        for (index, turn) in turns.enumerated() {
            guard let text = Self.text(of: turn) else {
                bad.append(BadCue(line: nil, reason: "turn \(index + 1) has no text"))
                continue
            }
            guard let start = Self.time(turn["start"] ?? turn["start_time"]) else {
                bad.append(BadCue(line: nil, reason: "turn \(index + 1) has no valid start time"))
                continue
            }
            let end = Self.time(turn["end"] ?? turn["end_time"])
            if let end, end < start {
                bad.append(BadCue(line: nil, reason: "turn \(index + 1) ends before it starts"))
                continue
            }
            // A speaker may be a name, a number (diarisation) or null.
            let speaker = Self.speaker(turn["speaker"] ?? turn["speaker_name"])
            cues.append(Cue(start: start, end: end, text: text, speaker: speaker, line: index + 1))
        }
        return try TranscriptDocument.make(type: "transcript", title: nil, cues: cues, bad: bad)
    }
}
