import Foundation

/// WebVTT (`.vtt`): `WEBVTT` header, cue identifiers and settings, `<v Speaker>` voices, NOTE,
/// STYLE and REGION blocks.
struct WebVTTExtractor: Extractor {
    let name = "vtt"
    let version = 2  // 2: voices split, sounds on blocks, OCW-proven rolling rules (Windows-1252 text, refused before, needs no new version)

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory else { return 0 }
        var head = input.data.prefix(16)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        guard head.starts(with: Array("WEBVTT".utf8)) else { return 0 }
        let next = head.dropFirst(6).first
        return next == nil || next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D ? 100 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var parser = SubtitleParser(format: .vtt)
        parser.parse(decoded.text)
        return try TranscriptDocument.make(type: "vtt", title: parser.title, cues: parser.cues, bad: parser.bad, decoding: decoded.warning)
    }
}
