import Foundation

/// A passage as a tutor should speak it: without the figure captions and their credits, the
/// licence and attribution lines, and the sentences the chunker repeats from the passage before.
/// A UMCF transcript segment is read aloud, so "(credit: “Manu and Saptarishi” by unknown
/// author/Wikimedia Commons, Public Domain)" there is noise the learner hears.
enum SpokenText {
    /// The parenthetical openings that credit a figure or a source's owner.
    static let creditOpenings = ["(credit:", "(credit ", "(attribution:", "(image credit:", "(photo credit:"]

    /// A paragraph longer than this that carries a credit is prose with a credit in it (the
    /// credit goes, the prose stays); a shorter one is a figure's caption and goes whole.
    static let captionLimit = 600

    /// Paragraphs that are the publisher's furniture, not teaching: licence, access and credit lines.
    static let boilerplate: [NSRegularExpression] = [
        #"^access for free at \S+"#,
        #"\blicensed under (a |the )?(creative commons|cc[ -]by)"#,
        #"^(this|the) (work|book|text|content|material|page|course) is (licensed|available|released|made available) under"#,
        #"^(©|\(c\)|copyright)\s"#,
        #"^(attribution|license|licence|credits?)\s*:"#,
        // A recording's credit line alone ("Instructor: Caleb Bonyun", OCW's demonstration pages).
        #"^(instructors?|lecturers?|speakers?|presenters?)\s*:[^.\n]{0,80}$"#,
        #"\bcreativecommons\.org/licenses\b"#,
    ].map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    /// `text` with caption paragraphs, credits and licence lines taken out; paragraphs kept in
    /// order, separated by a blank line. Empty when nothing spoken is left.
    static func clean(_ text: String) -> String {
        var kept: [String] = []
        for raw in text.components(separatedBy: "\n\n") {
            var paragraph = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !paragraph.isEmpty, !isBoilerplate(paragraph) else { continue }
            if hasCredit(paragraph) {
                if paragraph.count <= captionLimit { continue }
                paragraph = withoutCredits(paragraph)
            }
            if !paragraph.isEmpty { kept.append(paragraph) }
        }
        return kept.joined(separator: "\n\n")
    }

    static func isBoilerplate(_ paragraph: String) -> Bool {
        let range = NSRange(paragraph.startIndex..., in: paragraph)
        return boilerplate.contains { $0.firstMatch(in: paragraph, range: range) != nil }
    }

    static func hasCredit(_ paragraph: String) -> Bool {
        let lower = paragraph.lowercased()
        return creditOpenings.contains { lower.contains($0) }
    }

    /// `paragraph` without its credit parentheticals, each removed to its matching bracket.
    static func withoutCredits(_ paragraph: String) -> String {
        var text = paragraph
        while let open = creditOpenings.compactMap({ text.range(of: $0, options: .caseInsensitive)?.lowerBound }).min() {
            var depth = 0
            var end = text.endIndex
            var index = open
            while index < text.endIndex {
                if text[index] == "(" { depth += 1 }
                if text[index] == ")" {
                    depth -= 1
                    if depth == 0 { end = text.index(after: index); break }
                }
                index = text.index(after: index)
            }
            text.removeSubrange(open..<end)
        }
        return TextCleanup.collapseWhitespace(text).trimmingCharacters(in: .whitespaces)
    }

    /// `text` without its opening sentences that close `previous` (the chunker repeats the last
    /// sentences of a passage at the start of the next, and a tutor would say them twice).
    static func withoutRepeatedOpening(_ text: String, after previous: String) -> String {
        let closing = Set(SentenceSplitter.split(previous).suffix(8).map { normalised($0.text) })
        guard !closing.isEmpty else { return text }
        var cut = text.startIndex
        for sentence in SentenceSplitter.split(text) {
            guard closing.contains(normalised(sentence.text)) else { break }
            let end = text.index(text.startIndex, offsetBy: sentence.offset + sentence.text.count, limitedBy: text.endIndex) ?? text.endIndex
            cut = end
        }
        return String(text[cut...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func normalised(_ sentence: String) -> String {
        sentence.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
