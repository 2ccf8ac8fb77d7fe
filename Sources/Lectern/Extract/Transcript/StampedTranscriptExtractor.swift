import Foundation

/// Plain text with `[hh:mm:ss]` (or `[mm:ss]`) stamps starting its lines, optionally followed
/// by `Speaker:`; a stamp's text runs until the next stamp.
struct StampedTranscriptExtractor: Extractor {
    let name = "transcript-text"
    let version = 2  // 2: voices split, sounds on blocks, OCW-proven rolling rules (Windows-1252 text, refused before, needs no new version)

    init() {}

    static func stamp(_ line: Substring) -> (Double, Substring)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]"),
              let time = TimeCode.parse(trimmed[trimmed.index(after: trimmed.startIndex)..<close]) else { return nil }
        return (time, trimmed[trimmed.index(after: close)...])
    }

    /// A line meant to start with a stamp that is not one: `[00:0x:12]`, `[1:75]`, `[00:01:02`.
    static func bentStamp(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("["), stamp(line) == nil else { return false }
        let inside = trimmed.dropFirst().prefix { $0 != "]" && $0 != " " }.prefix(14)
        return inside.first?.isASCIIDigit == true && inside.contains(":")
    }

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, !TextDecoding.looksBinary(input.data) else { return 0 }
        let lines = TranscriptDocument.headLines(input.data, count: 40)
        let stamped = lines.filter { Self.stamp($0) != nil }.count
        return stamped >= 2 && stamped * 2 >= lines.count ? 80 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var cues: [Cue] = []
        var bad: [BadCue] = []
        var title: String?
        for (index, line) in decoded.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let (time, rest) = Self.stamp(line) {
                if let last = cues.last, time < last.start {
                    bad.append(BadCue(line: index + 1, reason: "time stamp goes backwards ('\(line.prefix(12))')"))
                    continue
                }
                var text = rest.trimmingCharacters(in: .whitespaces)
                var speaker: String?
                if let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) <= 30 {
                    let name = text[..<colon]
                    if name.split(separator: " ").count <= 3, name.first?.isUppercase == true, name.allSatisfy({ $0.isLetter || $0 == " " || $0 == "." }) {
                        speaker = String(name)
                        text = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                }
                if !cues.isEmpty, cues[cues.count - 1].end == nil { cues[cues.count - 1].end = time }
                cues.append(Cue(start: time, text: text, speaker: speaker, line: index + 1))
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
                continue
            } else if cues.isEmpty {
                if title == nil { title = line.trimmingCharacters(in: .whitespaces) }
            } else if Self.bentStamp(line) {
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                let stampText = trimmed.firstIndex(of: "]").map { trimmed[...$0] } ?? trimmed.prefix(14)
                bad.append(BadCue(line: index + 1, reason: "malformed time stamp '\(stampText.prefix(20))'"))
            } else {
                cues[cues.count - 1].text += "\n" + line
            }
        }
        return try TranscriptDocument.make(type: "transcript", title: title, cues: cues, bad: bad, decoding: decoded.warning)
    }
}
