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
            // "WEBVTT FILE" is an old YouTube header, not a title.
            if !rest.isEmpty, !rest.hasPrefix("-->"), rest != "FILE" { title = rest.hasPrefix("- ") ? String(rest.dropFirst(2)) : rest }
            while index < lines.count, !Self.isBlank(lines[index]) { index += 1 }
        }
        while index < lines.count {
            while index < lines.count, Self.isBlank(lines[index]) { index += 1 }
            guard index < lines.count else { break }
            let blockStart = index
            var block: [Substring] = []
            while index < lines.count, !endsBlock(lines, at: index) {
                block.append(lines[index])
                index += 1
            }
            for (offset, cue) in Self.splitRunTogether(block) {
                readBlock(cue, line: blockStart + 1 + offset)
            }
        }
    }

    /// Cues written without the blank line between them (common in hand-edited SubRip):
    /// a second timing line inside a block starts a new cue, with the index line above it.
    static func splitRunTogether(_ block: [Substring]) -> [(offset: Int, lines: [Substring])] {
        let arrows = block.indices.filter { hasArrow(block[$0]) }
        guard arrows.count > 1 else { return [(0, block)] }
        let timings = arrows.filter { index in
            let sides = block[index].components(separatedBy: "-->")
            return sides.count == 2 && TimeCode.parse(sides[0]) != nil
        }
        guard timings.count > 1 else { return [(0, block)] }
        var starts = [0]
        for timing in timings.dropFirst() {
            let above = timing > 0 ? block[timing - 1].trimmingCharacters(in: .whitespaces) : ""
            let start = !above.isEmpty && above.allSatisfy(\.isASCIIDigit) ? timing - 1 : timing
            if start > starts[starts.count - 1] { starts.append(start) }
        }
        return starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1] : block.count
            return (start, Array(block[start..<end]))
        }
    }

    /// Spaces and tabs only (byte checks: these run on every line of long files).
    static func isBlank(_ line: Substring) -> Bool {
        line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// Whether the line holds `-->`.
    static func hasArrow(_ line: Substring) -> Bool {
        var dashes = 0
        for byte in line.utf8 {
            if byte == 0x3E, dashes >= 2 { return true }
            dashes = byte == 0x2D ? dashes + 1 : 0
        }
        return false
    }

    /// Whether `lines[index]` separates blocks. An empty line always does; a line of only
    /// spaces does in SubRip, but in WebVTT only when a new block follows it: YouTube's
    /// captions put a line holding one space inside every cue.
    func endsBlock(_ lines: [Substring], at index: Int) -> Bool {
        let line = lines[index]
        if line.isEmpty { return true }
        guard line.allSatisfy({ $0 == " " || $0 == "\t" }) else { return false }
        if format == .srt { return true }
        let next = lines.dropFirst(index + 1).prefix(2)
        guard let following = next.first else { return true }
        return following.allSatisfy { $0 == " " || $0 == "\t" } || Self.hasArrow(following) || following.hasPrefix("NOTE")
            || (next.count == 2 && next.last.map(Self.hasArrow) == true)
    }

    mutating func readBlock(_ block: [Substring], line: Int) {
        if format == .vtt, let first = block.first {
            for keyword in ["NOTE", "STYLE", "REGION"] where first == keyword || first.hasPrefix(keyword + " ") || first.hasPrefix(keyword + "\t") {
                return
            }
        }
        guard let timingIndex = block.firstIndex(where: Self.hasArrow) else {
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
        let text = block[(timingIndex + 1)...].joined(separator: "\n")
        let voices = format == .vtt ? Self.voiceSegments(text) : [(text, nil)]
        // A cue where several voices speak becomes one cue per voice, sharing the cue's time
        // in proportion to how much each says.
        let total = Double(max(1, voices.reduce(0) { $0 + $1.text.count }))
        var said = 0
        for (segment, speaker) in voices {
            let from = start + (end - start) * Double(said) / total
            said += segment.count
            let to = voices.count == 1 ? end : start + (end - start) * Double(said) / total
            cues.append(Cue(start: from, end: to, text: Self.stripMarkup(segment), speaker: speaker, line: line + timingIndex))
        }
    }

    /// Splits cue text at `<v Speaker>` voice tags (`<v Roger Bingham>`, `<v.loud Mary>`):
    /// each piece with the voice that says it; text before the first tag has no named voice.
    static func voiceSegments(_ text: String) -> [(text: String, speaker: String?)] {
        var segments: [(text: String, speaker: String?)] = []
        var rest = Substring(text)
        var speaker: String?
        while let open = rest.range(of: "<v") {
            let after = rest[open.upperBound...]
            guard let first = after.first, first == " " || first == "." || first == "\t",
                  let close = after.firstIndex(of: ">") else {
                break
            }
            let before = rest[..<open.lowerBound]
            if !before.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { segments.append((String(before), speaker)) }
            var annotation = after[..<close]
            if annotation.hasPrefix(".") {  // classes: <v.loud.slow Name>
                annotation = annotation.drop { $0 != " " && $0 != "\t" }
            }
            let name = annotation.trimmingCharacters(in: .whitespaces)
            speaker = name.isEmpty ? nil : name
            rest = after[after.index(after: close)...]
        }
        if !rest.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || segments.isEmpty { segments.append((String(rest), speaker)) }
        return segments
    }

    /// A line that was meant as a timing line: it starts with a time code but has no `-->`.
    static func looksLikeTiming(_ line: Substring) -> Bool {
        guard let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return false }
        return TimeCode.parse(first) != nil && line.split(separator: " ").count >= 2
    }

    /// Removes `<i>`, `<font …>`, `<c.class>`, `<00:00:01.000>`, `{\an8}` and decodes the entities
    /// captions use.
    static func stripMarkup(_ text: String) -> String {
        var text = text
        // Ruby text (<rt>) is a reading aid over the words, not more words.
        while let open = text.range(of: "<rt>"), let close = text.range(of: "</rt>", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        // Only the markup subtitles define is markup: SRT's and WebVTT's tags (`<i>`, `</b>`,
        // `<font …>`, `<v Speaker>`, `<c.yellow>`, `<lang en>`), VTT's `<00:01:02.000>` timestamps and
        // SSA override codes (`{\an8}`). A maths caption's `x < 5 and y > 3` or `{1, 2}` is text.
        var output = ""
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == "{" }) {
            output += rest[..<index]
            let candidate = rest[index...]
            if let end = markupEnd(candidate) {
                rest = candidate[end...]
            } else {
                output.append(candidate.first!)
                rest = candidate.dropFirst()
            }
        }
        output += rest
        guard output.contains("&") else { return output }
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", " "), ("&quot;", "\""),
                                ("&apos;", "'"), ("&lrm;", ""), ("&rlm;", "")] {
            output = output.replacingOccurrences(of: entity, with: value)
        }
        return decodeNumericEntities(output).replacingOccurrences(of: "&amp;", with: "&")
    }

    static let tagNames: Set<String> = ["i", "b", "u", "s", "c", "v", "lang", "ruby", "rt", "font"]

    /// Where the markup starting at `text` (at a `<` or `{`) ends, or nil when it is not markup.
    static func markupEnd(_ text: Substring) -> Substring.Index? {
        let limit = text.prefix(400)
        if text.first == "{" {
            guard text.dropFirst().first == "\\", let close = limit.firstIndex(of: "}") else { return nil }
            return text.index(after: close)
        }
        guard let close = limit.dropFirst().firstIndex(where: { $0 == ">" || $0 == "<" || $0 == "\n" }),
              text[close] == ">" else { return nil }
        var body = text[text.index(after: text.startIndex)..<close]
        let closing = body.first == "/"
        if closing { body = body.dropFirst() }
        if let first = body.first, first.isASCIIDigit {
            // A karaoke timestamp: <00:00:01.500> or <01.500>.
            return body.allSatisfy({ $0.isASCIIDigit || $0 == ":" || $0 == "." }) ? text.index(after: close) : nil
        }
        let name = body.prefix { $0.isLetter }.lowercased()
        guard tagNames.contains(name) else { return nil }
        // Only <v Speaker>, <lang en> and <font color=…> take an annotation after a space;
        // the others are bare or carry classes (<c.yellow>), and closing tags are bare.
        let after = body.dropFirst(name.count).first
        let annotated = !closing && ["v", "lang", "font"].contains(name) && (after == " " || after == "\t")
        return after == nil || (after == "." && !closing) || annotated ? text.index(after: close) : nil
    }

    /// `&#8217;` and `&#x2019;` → `’` (invalid or control code points are left as written).
    static func decodeNumericEntities(_ text: String) -> String {
        guard text.contains("&#") else { return text }
        var output = ""
        var rest = Substring(text)
        while let open = rest.range(of: "&#") {
            output += rest[..<open.lowerBound]
            let body = rest[open.upperBound...]
            let hex = body.first == "x" || body.first == "X"
            let digits = (hex ? body.dropFirst() : body).prefix { hex ? $0.isHexDigit : $0.isASCIIDigit }.prefix(8)
            let afterDigits = (hex ? body.dropFirst() : body).dropFirst(digits.count)
            if !digits.isEmpty, afterDigits.first == ";", let value = UInt32(digits, radix: hex ? 16 : 10),
               value >= 0x20, let scalar = Unicode.Scalar(value) {
                output.unicodeScalars.append(scalar)
                rest = afterDigits.dropFirst()
            } else {
                output += "&#"
                rest = body
            }
        }
        return output + rest
    }
}
