import Foundation

/// A saved timed transcript (OCW's `<p><span m='4190'>words</span> …</p>`, start in ms), on its own
/// rather than inside a course: a transcript whose hits name the moment, like an SRT.
struct TimedHTMLExtractor: Extractor {
    let name = "timed-html"
    let version = 1

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, HTMLExtractor.looksLikeHTML(input.data) else { return 0 }
        // Above a plain page (60), below Wikipedia (90): a page made of timed spans is a transcript.
        return TimedTranscript.timedSpanCount(input.data, limit: 5) >= 5 ? 80 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let document = try MarkupDocument.html(input.data, name: input.displayName, contentType: input.contentType)
        guard let root = document.root else { throw LecternError(.empty, input.displayName, "no timed transcript found") }
        let title = root.first(where: { $0.name == "title" || $0.name == "h1" })
            .map { TextCleanup.collapseWhitespace($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
        return try TranscriptDocument.make(type: "transcript", title: title, cues: TimedTranscript.spanCues(root), bad: [])
    }
}
