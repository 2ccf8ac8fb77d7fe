/// A problem that did not stop extraction (a bad cue skipped, pages without text, bytes read
/// in another encoding), with the line of the source it is about when there is one, so a front
/// end can print `lecture.srt:42: …` without parsing the message.
struct ExtractionWarning: Codable, Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The 1-based line of the source; nil when the warning is about the whole source or a
    /// place that is not a line (a page, a JSON turn, a module).
    var line: Int?
    var message: String
    /// How to fix a cause that is the machine's, not the document's (an OCR language pack to
    /// install): the run says it once, however many documents meet the same cause (`RunAdvice`).
    var advice: String?

    init(_ message: String, line: Int? = nil, advice: String? = nil) {
        self.message = message
        self.line = line
        self.advice = advice
    }

    init(stringLiteral message: String) {
        self.init(message)
    }

    /// `line 42: message`, or the message alone: for places without a `file:line` form (the
    /// run record, the one-line error of a document left with no text).
    var description: String { line.map { "line \($0): \(message)" } ?? message }
}
