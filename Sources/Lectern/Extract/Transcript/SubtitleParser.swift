import Foundation

/// Reads SRT and WebVTT cue blocks: blocks separated by blank lines, each an optional
/// identifier, a timing line `start --> end [settings]`, and text lines.
struct SubtitleParser {
    enum Format { case srt, vtt }

    var format: Format
    var cues: [Cue] = []
    var bad: [BadCue] = []
    var title: String?

    init(format: Format) {
        self.format = format
    }

    /// `text` has `\n` line ends (`TextDecoding.decodeLines`).
    mutating func parse(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        var index = 0
        if format == .vtt, let header = lines.first {
            // "WEBVTT", optionally followed by a space or tab and a title; header lines up to a blank line.
            let rest = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty, !rest.hasPrefix("-->") { title = rest.hasPrefix("- ") ? String(rest.dropFirst(2)) : rest }
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
        }
        while index < lines.count {
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
            guard index < lines.count else { break }
            let blockStart = index
            var block: [Substring] = []
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                block.append(lines[index])
                index += 1
            }
            readBlock(block, line: blockStart + 1)
        }
    }

    mutating func readBlock(_ block: [Substring], line: Int) {
        if format == .vtt, let first = block.first {
            for keyword in ["NOTE", "STYLE", "REGION"] where first == keyword || first.hasPrefix(keyword + " ") || first.hasPrefix(keyword + "\t") {
                return
            }
        }
        guard let timingIndex = block.firstIndex(where: { $0.contains("-->") }) else {
            if let bent = block.firstIndex(where: Self.looksLikeTiming) {
                bad.append(BadCue(line: line + bent, reason: "malformed timing line '\(block[bent].prefix(60))'"))
            } else if format == .srt, block.count == 1, block[0].allSatisfy(\.isNumber) {
                bad.append(BadCue(line: line, reason: "cue \(block[0]) has no timing line"))
            } else if !cues.isEmpty {
                // Text after a blank line inside a cue: keep it with the previous cue.
                cues[cues.count - 1].text += "\n" + Self.stripMarkup(block.joined(separator: "\n"))
            } else {
                bad.append(BadCue(line: line, reason: "text without a timing line"))
            }
            return
        }
        let timingLine = block[timingIndex]
        let sides = timingLine.components(separatedBy: "-->")
        let endFields = sides.count == 2 ? sides[1].split(whereSeparator: { $0 == " " || $0 == "\t" }) : []
        guard sides.count == 2, let start = TimeCode.parse(sides[0]), let endField = endFields.first, let end = TimeCode.parse(endField) else {
            bad.append(BadCue(line: line + timingIndex, reason: "malformed timing line '\(timingLine.prefix(60))'"))
            return
        }
        guard end >= start else {
            bad.append(BadCue(line: line + timingIndex, reason: "cue ends before it starts ('\(timingLine)')"))
            return
        }
        var text = block[(timingIndex + 1)...].joined(separator: "\n")
        var speaker: String?
        if format == .vtt {
            (text, speaker) = Self.readVoice(text)
        }
        text = Self.stripMarkup(text)
        cues.append(Cue(start: start, end: end, text: text, speaker: speaker, line: line + timingIndex))
    }

    /// A line that was meant as a timing line: it starts with a time code but has no `-->`.
    static func looksLikeTiming(_ line: Substring) -> Bool {
        guard let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return false }
        return TimeCode.parse(first) != nil && line.split(separator: " ").count >= 2
    }

    /// `<v Roger Bingham>` / `<v.loud Mary>` voice spans name the speaker.
    static func readVoice(_ text: String) -> (String, String?) {
        guard let open = text.range(of: "<v") else { return (text, nil) }
        let after = text[open.upperBound...]
        guard let first = after.first, first == " " || first == "." || first == "\t", let close = after.firstIndex(of: ">") else { return (text, nil) }
        var annotation = after[..<close]
        if annotation.hasPrefix(".") {  // classes: <v.loud.slow Name>
            annotation = annotation.drop { $0 != " " && $0 != "\t" }
        }
        let name = annotation.trimmingCharacters(in: .whitespaces)
        return (text, name.isEmpty ? nil : name)
    }

    /// Removes `<i>`, `<font …>`, `<c.class>`, `<00:00:01.000>`, `{\an8}` and decodes the entities
    /// captions use.
    static func stripMarkup(_ text: String) -> String {
        var output = ""
        var inTag = false
        var inBrace = false
        for c in text {
            switch c {
            case "<" where !inBrace: inTag = true
            case ">" where inTag: inTag = false
            case "{" where !inTag: inBrace = true
            case "}" where inBrace: inBrace = false
            default:
                if !inTag && !inBrace { output.append(c) }
            }
        }
        for (entity, value) in [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", " "), ("&quot;", "\""),
                                ("&#39;", "'"), ("&apos;", "'"), ("&lrm;", ""), ("&rlm;", "")] {
            output = output.replacingOccurrences(of: entity, with: value)
        }
        return output
    }
}
