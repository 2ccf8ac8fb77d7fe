import Foundation

/// SubRip (`.srt`): numbered cues, `00:01:02,345 --> 00:01:04,000`, BOM and CRLF tolerated.
struct SRTExtractor: Extractor {
    let name = "srt"
    let version = 2  // 2: voices split, sounds on blocks, OCW-proven rolling rules (Windows-1252 text, refused before, needs no new version)

    init() {}

    func confidence(for input: SourceInput) -> Int {
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

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var parser = SubtitleParser(format: .srt)
        parser.parse(decoded.text)
        return try TranscriptDocument.make(type: "srt", title: nil, cues: parser.cues, bad: parser.bad, decoding: decoded.warning)
    }
}
