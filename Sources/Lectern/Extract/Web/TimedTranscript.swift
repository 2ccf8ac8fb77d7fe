import Foundation

/// OCW's timed transcript HTML (`<p><span m='4190'>words</span> …</p>`, start in milliseconds)
/// as sentence blocks with the time of the span each sentence starts in.
enum TimedTranscript {
    static func cues(html: String, name: String, sectionPath: [String], speaker: String? = nil) throws -> [Block] {
        guard html.contains("m=") else { return [] }
        let document = try MarkupDocument.html(Data(html.utf8), name: name)
        guard let root = document.root else { return [] }
        return cues(root, sectionPath: sectionPath, speaker: speaker)
    }

    static func cues(_ root: MarkupNode, sectionPath: [String], speaker: String? = nil) -> [Block] {
        TranscriptBuilder.blocks(from: spanCues(root, speaker: speaker), sectionPath: sectionPath)
    }

    /// One cue per timed span, ending where the next begins; the transcript builder merges
    /// them into sentences and paragraphs, each starting at the span it begins in.
    static func spanCues(_ root: MarkupNode, speaker: String? = nil) -> [Cue] {
        var spans: [(start: Double, text: String)] = []
        for span in root.all(where: { $0.name == "span" && $0.attribute("m") != nil }) {
            let text = TextCleanup.collapseWhitespace(span.text)
            guard let m = span.attribute("m").flatMap(Double.init), m.isFinite, m >= 0, !text.isEmpty else { continue }
            spans.append((m / 1000, text))
        }
        return spans.enumerated().map { index, span in
            let next = index + 1 < spans.count ? spans[index + 1].start : span.start + 3
            return Cue(start: span.start, end: max(next, span.start), text: span.text, speaker: speaker)
        }
    }

    /// How many `<span m=` a page holds (whatever quotes the value), counting up to `limit`.
    static func timedSpanCount(_ data: Data, limit: Int) -> Int {
        let marker = Data("<span m=".utf8)
        var count = 0
        var range = data.startIndex..<data.endIndex
        while count < limit, let found = data.range(of: marker, in: range) {
            count += 1
            range = found.upperBound..<data.endIndex
        }
        return count
    }
}

/// A saved timed transcript (OCW's `<p><span m='4190'>words</span> …</p>`, start in ms), on its own
/// rather than inside a course: a transcript whose hits name the moment, like an SRT.
public struct TimedHTMLExtractor: Extractor {
    public let name = "timed-html"
    public let version = 1

    public init() {}

    public func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, HTMLExtractor.looksLikeHTML(input.data) else { return 0 }
        // Above a plain page (60), below Wikipedia (90): a page made of timed spans is a transcript.
        return TimedTranscript.timedSpanCount(input.data, limit: 5) >= 5 ? 80 : 0
    }

    public func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let document = try MarkupDocument.html(input.data, name: input.displayName, contentType: input.contentType)
        guard let root = document.root else { throw LecternError(.empty, input.displayName, "no timed transcript found") }
        let title = root.first(where: { $0.name == "title" || $0.name == "h1" })
            .map { TextCleanup.collapseWhitespace($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
        return try TranscriptDocument.make(type: "transcript", title: title, cues: TimedTranscript.spanCues(root), bad: [])
    }
}
