import Foundation

/// OCW's timed transcript HTML (`<p><span m='4190'>words</span> …</p>`, start in milliseconds)
/// as cue blocks: one per paragraph, starting at its first span and ending where the next
/// paragraph starts.
enum TimedTranscript {
    static func cues(html: String, name: String, sectionPath: [String], speaker: String? = nil) throws -> [Block] {
        guard html.contains("m=") else { return [] }
        let document = try MarkupDocument.html(Data(html.utf8), name: name)
        guard let root = document.root else { return [] }
        return cues(root, sectionPath: sectionPath, speaker: speaker)
    }

    static func cues(_ root: MarkupNode, sectionPath: [String], speaker: String? = nil) -> [Block] {
        var pieces: [(start: Double, last: Double, text: String)] = []
        for paragraph in root.all(where: { $0.name == "p" }) {
            let spans = paragraph.all { $0.name == "span" && $0.attribute("m") != nil }
            let times = spans.compactMap { $0.attribute("m").flatMap(Double.init) }
            let text = TextCleanup.collapseWhitespace(paragraph.text)
            guard let first = times.first, !text.isEmpty else { continue }
            pieces.append((first / 1000, (times.last ?? first) / 1000, text))
        }
        if pieces.isEmpty {
            // Spans without paragraphs: one cue per span.
            for span in root.all(where: { $0.name == "span" && $0.attribute("m") != nil }) {
                let text = TextCleanup.collapseWhitespace(span.text)
                guard let m = span.attribute("m").flatMap(Double.init), !text.isEmpty else { continue }
                pieces.append((m / 1000, m / 1000, text))
            }
        }
        return pieces.enumerated().map { index, piece in
            // A paragraph ends where the next begins; the last one a few seconds after its last span.
            let end = index + 1 < pieces.count ? pieces[index + 1].start : piece.last + 3
            return Block(kind: .cue, text: piece.text, sectionPath: sectionPath, start: piece.start, end: max(end, piece.start),
                         speaker: speaker)
        }
    }
}
