import Foundation

/// OCW's timed transcript HTML (`<p><span m='4190'>words</span> …</p>`, start in milliseconds)
/// as sentence blocks with the time of the span each sentence starts in.
enum TimedTranscript {
    static func cues(html: String, name: String, sectionPath: [String]) throws -> [Block] {
        guard html.contains("m=") else { return [] }
        let document = try MarkupDocument.html(Data(html.utf8), name: name)
        guard let root = document.root else { return [] }
        return cues(root, sectionPath: sectionPath)
    }

    static func cues(_ root: MarkupNode, sectionPath: [String]) -> [Block] {
        TranscriptBuilder.blocks(from: spanCues(root), sectionPath: sectionPath)
    }

    /// One cue per timed span, ending where the next begins; the transcript builder merges
    /// them into sentences and paragraphs, each starting at the span it begins in.
    static func spanCues(_ root: MarkupNode) -> [Cue] {
        var spans: [(start: Double, text: String)] = []
        for span in root.all(where: { $0.name == "span" && $0.attribute("m") != nil }) {
            let text = TextCleanup.collapseWhitespace(span.text)
            guard let m = span.attribute("m").flatMap(Double.init), m.isFinite, m >= 0, !text.isEmpty else { continue }
            spans.append((m / 1000, text))
        }
        return spans.enumerated().map { index, span in
            let next = index + 1 < spans.count ? spans[index + 1].start : span.start + 3
            return Cue(start: span.start, end: max(next, span.start), text: span.text)
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
