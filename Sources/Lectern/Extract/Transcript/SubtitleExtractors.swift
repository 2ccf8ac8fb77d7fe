import Foundation

/// What the transcript readers share: cues → sentence blocks, metadata, and the rule for bad
/// cues (a file with some bad cues ingests the good ones with a warning; a file with none
/// good fails naming the first bad line).
enum TranscriptDocument {
    static func make(type: String, title: String?, cues: [Cue], bad: [BadCue], decoding: ExtractionWarning? = nil) throws -> ExtractedDocument {
        if cues.isEmpty {
            if let first = bad.first {
                let more = bad.count > 1 ? " (and \(bad.count - 1) more bad cue\(bad.count > 2 ? "s" : ""))" : ""
                throw LecternError(.corrupt, nil, first.reason + more, line: first.line)
            }
            throw LecternError(.empty, nil, "no cues found")
        }
        let result = TranscriptBuilder().build(cues)
        guard !result.blocks.isEmpty else { throw LecternError(.empty, nil, "no spoken text found (only sound tags)") }
        var warnings = bad.prefix(5).map { ExtractionWarning($0.reason + " (cue skipped)", line: $0.line) }
        if bad.count > 5 { warnings.append(ExtractionWarning("\(bad.count - 5) more bad cues skipped")) }
        if let decoding { warnings.append(decoding) }
        var metadata: [String: String] = ["cues": String(cues.count)]
        if let duration = result.duration { metadata["duration"] = String(format: "%.3f", duration) }
        if !result.speakers.isEmpty { metadata["speakers"] = result.speakers.joined(separator: ", ") }
        if !result.sounds.isEmpty {
            metadata["sounds"] = result.sounds.prefix(200).map { "\(TimeFormat.clock($0.time)) \($0.text)" }.joined(separator: "; ")
        }
        if result.rolledRepeats > 0 { metadata["rolled_repeats_removed"] = String(result.rolledRepeats) }
        return ExtractedDocument(type: type, title: title ?? "", blocks: result.blocks, metadata: metadata, warnings: warnings)
    }

    /// The first non-blank lines of a text file (UTF-8 or UTF-16), without a BOM, for sniffing.
    static func headLines(_ data: Data, count: Int = 12) -> [Substring] {
        var head = TextDecoding.decode(data.prefix(4096)).text
        if head.hasPrefix("\u{FEFF}") { head.removeFirst() }
        return Array(head.split(whereSeparator: \.isNewline).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
            .filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }.prefix(count))
    }
}

/// SubRip (`.srt`): numbered cues, `00:01:02,345 --> 00:01:04,000`, BOM and CRLF tolerated.
public struct SRTExtractor: Extractor {
    public let name = "srt"
    public let version = 2  // 2: voices split, sounds on blocks, OCW-proven rolling rules (Windows-1252 text, refused before, needs no new version)

    public init() {}

    public func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, !TextDecoding.looksBinary(input.data) else { return 0 }
        let lines = TranscriptDocument.headLines(input.data)
        guard !lines.contains(where: { $0.hasPrefix("WEBVTT") }) else { return 0 }
        for (i, line) in lines.enumerated() where line.contains("-->") {
            let sides = line.components(separatedBy: "-->")
            if sides.count == 2, TimeCode.parse(sides[0]) != nil {
                // The index line above a timing line makes it SubRip.
                if i == 0 || lines[i - 1].trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) { return 90 }
                return 60
            }
        }
        // Numbered blocks whose timing lines are broken are still SubRip (and get a line-numbered error).
        for (i, line) in lines.enumerated().dropLast() where line.trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) {
            if SubtitleParser.looksLikeTiming(lines[i + 1]) { return 70 }
        }
        return 0
    }

    public func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var parser = SubtitleParser(format: .srt)
        parser.parse(decoded.text)
        return try TranscriptDocument.make(type: "srt", title: nil, cues: parser.cues, bad: parser.bad, decoding: decoded.warning)
    }
}

/// WebVTT (`.vtt`): `WEBVTT` header, cue identifiers and settings, `<v Speaker>` voices, NOTE,
/// STYLE and REGION blocks.
public struct WebVTTExtractor: Extractor {
    public let name = "vtt"
    public let version = 2  // 2: voices split, sounds on blocks, OCW-proven rolling rules (Windows-1252 text, refused before, needs no new version)

    public init() {}

    public func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory else { return 0 }
        var head = input.data.prefix(16)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        guard head.starts(with: Array("WEBVTT".utf8)) else { return 0 }
        let next = head.dropFirst(6).first
        return next == nil || next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D ? 100 : 0
    }

    public func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var parser = SubtitleParser(format: .vtt)
        parser.parse(decoded.text)
        return try TranscriptDocument.make(type: "vtt", title: parser.title, cues: parser.cues, bad: parser.bad, decoding: decoded.warning)
    }
}
