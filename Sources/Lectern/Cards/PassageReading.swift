import Foundation

/// A passage read sentence by sentence, each sentence marked with why it is not the source's
/// own statement when it is not: text inside an example, a quotation, a hypothetical, an
/// argument's premises or conclusion, a question, an exercise or a figure credit. Judged by
/// structure (the line announcing an example, an argument's "Therefore" line, the section),
/// so any book in English reads the same way.
struct PassageReading: Sendable {
    struct Sentence: Sendable {
        let text: String
        /// Folded words, in order.
        let words: [String]
        let stems: Set<String>
        /// Why this sentence is not asserted by the source; nil when it is.
        let notAsserted: String?
    }

    let sentences: [Sentence]

    init(_ passage: Passage) {
        let section = passage.sectionPath.last.map { $0.lowercased() } ?? ""
        let sectionReason = Self.sectionReason(section, kind: passage.kind)
        let lines = passage.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let lineReasons = Self.lineReasons(lines)
        var sentences: [Sentence] = []
        for (index, line) in lines.enumerated() {
            for piece in SentenceSplitter.split(line) {
                let text = TextCleanup.collapseWhitespace(piece.text)
                let words = PorterStemmer.foldedWords(text)
                guard !words.isEmpty else { continue }
                let reason = sectionReason ?? lineReasons[index] ?? Self.sentenceReason(text, kind: passage.kind)
                sentences.append(Sentence(text: text, words: words, stems: Set(words.map(PorterStemmer.cachedStem)), notAsserted: reason))
            }
        }
        self.sentences = sentences
    }

    /// The sentence, or the two neighbouring sentences, holding every stem of `stems` (the
    /// first such); for two, the one that is not asserted speaks for both.
    func best(covering stems: Set<String>) -> Sentence? {
        guard !stems.isEmpty else { return nil }
        for sentence in sentences where stems.isSubset(of: sentence.stems) { return sentence }
        for index in sentences.indices.dropLast() {
            let pair = sentences[index].stems.union(sentences[index + 1].stems)
            guard stems.isSubset(of: pair) else { continue }
            let first = sentences[index], second = sentences[index + 1]
            return Sentence(text: first.text + " " + second.text, words: first.words + second.words, stems: pair,
                            notAsserted: first.notAsserted ?? second.notAsserted)
        }
        return nil
    }

    // MARK: Why not asserted

    /// Sections that are exercises or questions, not exposition.
    static let exerciseSections = [
        "review question", "exercise", "problem", "practice", "critical thinking", "think like a philosopher",
        "write like a philosopher", "check your understanding", "self-check", "quiz", "homework", "assignment",
        // German, French and Spanish notes' exercise sections ("Übungsaufgaben", "Exercices").
        "übung", "aufgabe", "exercice", "ejercicio",
    ]

    static func sectionReason(_ section: String, kind: PassageKind) -> String? {
        if kind == .exercise { return "an exercise" }
        if kind == .caption { return "a figure caption" }
        if exerciseSections.contains(where: section.contains) { return "in the section “\(section)”: an exercise" }
        return nil
    }

    /// Lines after one that announces an example or an argument ("Here is an example:",
    /// "Consider the following argument:"), and the lines of an argument's form (premises
    /// ending in a "Therefore" line, "P1:", "Premise 1"), are not asserted.
    static func lineReasons(_ lines: [String]) -> [Int: String] {
        var reasons: [Int: String] = [:]
        for (index, line) in lines.enumerated() {
            let lower = line.lowercased()
            let unmarked = stripMarker(lower)
            if premiseMark(lower) { reasons[index] = "a premise or conclusion of an argument" }
            // An argument's conclusion line: it and the short lines before it are its form.
            if conclusionWords.contains(where: { unmarked.hasPrefix($0) }), WordTokenizer.words(line).count <= 30 {
                var back = index
                var premises: [Int] = []
                while back > 0, WordTokenizer.words(lines[back - 1]).count <= 30, !lines[back - 1].hasSuffix(":"), premises.count < 5 {
                    back -= 1
                    premises.append(back)
                }
                if !premises.isEmpty || isListItem(line) {
                    reasons[index] = "a premise or conclusion of an argument"
                    for premise in premises { reasons[premise] = "a premise or conclusion of an argument" }
                }
            }
            // "… an example:" / "… the following argument:" announces what follows.
            if line.hasSuffix(":"), announcers.contains(where: lower.contains) {
                let what = lower.contains("argument") || lower.contains("syllogism") || lower.contains("premise")
                    ? "a premise or conclusion of an argument" : "inside an example"
                var next = index + 1
                // The next line, and the list items after it (marked, or a run of short lines).
                let shortRun = index + 1 < lines.count && WordTokenizer.words(lines[index + 1]).count <= 25
                while next < lines.count,
                      next == index + 1 || isListItem(lines[next]) || reasons[next] != nil
                        || (shortRun && WordTokenizer.words(lines[next]).count <= 25 && !lines[next - 1].hasSuffix(":")) {
                    if reasons[next] == nil { reasons[next] = what }
                    next += 1
                }
            }
        }
        return reasons
    }

    static let announcers = ["example", "instance", "following", "argument", "consider", "case", "like this", "scenario",
                             "syllogism", "suppose", "imagine", "illustrat", "goes like", "as follows"]
    static let conclusionWords = ["therefore", "so,", "hence", "thus,", "conclusion:", "c:", "∴"]

    private static func premiseMark(_ lower: String) -> Bool {
        lower.range(of: #"^(\(?p\d\)?[:.)]|premise\s*\d|\(\d\)\s|conclusion\s*[:.])"#, options: .regularExpression) != nil
    }

    private static func isListItem(_ line: String) -> Bool {
        line.range(of: #"^([-•*–·]|\d{1,2}[.)]|\(\d{1,2}\)|[a-z][.)])\s"#, options: .regularExpression) != nil
    }

    private static func stripMarker(_ line: String) -> String {
        line.replacingOccurrences(of: #"^([-•*–·]|\d{1,2}[.)]|\(\d{1,2}\)|[a-z][.)])\s+"#, with: "", options: .regularExpression)
    }

    /// Openings of hypotheticals and examples, in the sentence itself.
    static let hypotheticalOpenings = ["suppose", "imagine", "consider", "let's say", "let us say", "say that", "pretend",
                                       "what if", "assume that", "picture", "think of"]
    static let exampleOpenings = ["for example", "for instance", "e.g.", "here is an example", "as an example", "take the"]

    static func sentenceReason(_ sentence: String, kind: PassageKind) -> String? {
        var text = sentence.trimmingCharacters(in: .whitespaces)
        while let first = text.first, "-•*–·".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        let lower = text.lowercased()
        if text.hasSuffix("?") { return "a question" }
        if lower.contains("(credit") || lower.hasPrefix("credit:") || lower.range(of: #"^(figure|fig\.|table)\s*\d"#, options: .regularExpression) != nil {
            return "a figure credit or caption"
        }
        if hypotheticalOpenings.contains(where: { lower.hasPrefix($0 + " ") || lower.hasPrefix($0 + ",") }) { return "a hypothetical" }
        if exampleOpenings.contains(where: lower.hasPrefix) { return "inside an example" }
        if premiseMark(lower) { return "a premise or conclusion of an argument" }
        // Quoted speech: the sentence opens with a quotation mark and is mostly quotation.
        if let first = text.first, "“\"‘".contains(first) {
            let quoted = text.dropFirst().prefix { !"”\"’".contains($0) }
            if quoted.count * 2 >= text.count { return "a quotation" }
        }
        // A first-person story in a book is someone's example; a lecturer speaks so throughout.
        if kind != .transcript, lower.hasPrefix("i ") || lower.hasPrefix("my ") || lower.hasPrefix("i’m ") || lower.hasPrefix("i'm ") {
            return "a first-person example"
        }
        return nil
    }
}
