import Foundation

/// A topic's estimated study time by the kind of its content: a recording at its running time,
/// prose at a study pace, problems and exercises by the item, proofs and derivations at a
/// mathematics reading pace. One rate for everything (words ÷ 200) put every OCW problem set at
/// 1 minute and a recorded lecture 17% under its running time.
enum StudyTime {
    /// Words a minute for prose read to learn it. Carver (1992, "Reading rate: theory, research,
    /// and practical implications", Journal of Reading 36(2)) measured 200 words a minute for
    /// reading to learn and 138 for reading to memorise; a textbook section, read to remember
    /// what it teaches, sits at the memorising end: 130.
    static let wordsPerMinute = 130
    /// Words a minute for a proof or a derivation (mathematics is read line by line, each step
    /// checked): a third of the prose pace.
    static let mathematicsWordsPerMinute = 45
    /// Minutes for one problem or exercise: an introductory course's problem, attempted and
    /// checked.
    static let minutesPerProblem = 8

    /// Whole minutes to study `words` words of prose, rounded up, at least 1.
    static func minutes(words: Int) -> Int {
        max(1, (max(words, 0) + wordsPerMinute - 1) / wordsPerMinute)
    }

    /// Whole minutes to study `passages`: each recording's running time, plus its prose at
    /// the study pace, its problems by the item and its proofs at the mathematics pace; at least 1.
    static func minutes(passages: [Passage]) -> Int {
        var seconds = 0.0
        // Timed passages of one document: from the first start to the last end (overlapping
        // passages share their seconds).
        var spans: [Int64: (start: Double, end: Double)] = [:]
        for passage in passages {
            if let start = passage.timeStart {
                let end = passage.timeEnd ?? start
                let span = spans[passage.documentId] ?? (start, end)
                spans[passage.documentId] = (min(span.start, start), max(span.end, end))
                continue
            }
            // Split once for the words and the formula test (each split reads every character).
            let tokens = passage.text.split(whereSeparator: \.isWhitespace)
            let words = Double(tokens.count)
            if isProblem(passage) {
                seconds += Double(problems(in: passage.text) * minutesPerProblem) * 60
            } else if isMathematics(passage, tokens: tokens) {
                seconds += words * 60 / Double(mathematicsWordsPerMinute)
            } else {
                seconds += words * 60 / Double(wordsPerMinute)
            }
        }
        seconds += spans.values.reduce(0) { $0 + max(0, $1.end - $1.start) }
        return max(1, Int((seconds / 60).rounded(.up)))
    }

    /// Section names under which the text is problems to solve.
    static let problemSections = ["problem set", "problems", "exercises", "exercise", "practice", "homework", "assignment",
                                  "review questions", "übung", "aufgabe", "übungsaufgaben", "quiz"]

    static func isProblem(_ passage: Passage) -> Bool {
        if passage.kind == .exercise { return true }
        return passage.sectionPath.contains(where: isProblemHeading)
    }

    /// A heading that names problems to solve: "Problem Set 3", "Exercises 2.1", "Practice
    /// problems", "Review Questions", "Pulley Problems - Part I": the name last, or followed by
    /// a number or a dash. "Problems with the Traditional Account of Knowledge", "Practice Makes
    /// Perfect" and "Normative Practices: The Ten Doctrines" go on as a phrase: prose.
    static func isProblemHeading(_ heading: String) -> Bool {
        let lower = heading.lowercased()
        for name in problemSections {
            var from = lower.startIndex
            while let found = lower.range(of: name, range: from..<lower.endIndex) {
                from = found.upperBound
                guard found.lowerBound == lower.startIndex || lower[lower.index(before: found.lowerBound)] == " " else { continue }
                var after = lower[found.upperBound...]
                if after.first == "s" { after = after.dropFirst() }  // the plural of a name in the singular
                if after.first?.isLetter == true { continue }  // inside a longer word
                guard let next = after.split(separator: " ").first else { return true }
                // A number or a dash: the set's number or part. Anything else goes on as a phrase
                // ("… with the Traditional Account", "Practices: The Ten Doctrines").
                if next.first?.isNumber == true || ["-", "–", "—"].contains(next) { return true }
            }
        }
        return false
    }

    /// The problems a passage sets: numbered items ("1.", "Problem 3", "(a)" parts count with
    /// their problem), at least 1.
    static func problems(in text: String) -> Int {
        max(1, problemItem.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)))
    }

    /// Compiled once (per call it was a share of a course's build).
    private static let problemItem = try! NSRegularExpression(pattern: #"(?m)^\s*(?:(?:Problem|Exercise|Question|Aufgabe)\s+\d+|\d{1,2}[.)]\s)"#)

    /// A proof, or a passage dense with formulae: a "Proof"/"Beweis" section or opening, or many
    /// symbol tokens.
    static func isMathematics(_ passage: Passage) -> Bool {
        isMathematics(passage, tokens: passage.text.split(whereSeparator: \.isWhitespace))
    }

    /// `isMathematics(_:)` of a passage already split at whitespace.
    static func isMathematics(_ passage: Passage, tokens: [Substring]) -> Bool {
        let lower = passage.text.prefix(40).lowercased()
        if lower.hasPrefix("proof") || lower.hasPrefix("beweis") { return true }
        if passage.sectionPath.contains(where: { ["proof", "beweis", "derivation", "herleitung"].contains($0.lowercased()) }) { return true }
        guard tokens.count >= 20 else { return false }
        let symbols = tokens.filter { token in
            token.contains(where: isSymbol) || (token.count <= 2 && !token.allSatisfy(\.isLetter))
        }.count
        return Double(symbols) >= 0.15 * Double(tokens.count)
    }

    /// The characters of formulae. An ASCII character is looked up by its byte and any other in
    /// a set: searching the list of symbols for every character of every passage was a fifth of
    /// a book's `curriculum build`.
    static func isSymbol(_ character: Character) -> Bool {
        if let ascii = character.asciiValue, character.utf8.count == 1 { return asciiSymbols.contains(ascii) }
        return otherSymbols.contains(character)
    }

    static let symbols: [Character] = Array("=+−×÷∑∫∂≤≥≠→∈⊂∀∃^_\\")
    private static let asciiSymbols = Set(symbols.compactMap { $0.utf8.count == 1 ? $0.asciiValue : nil })
    private static let otherSymbols = Set(symbols.filter { $0.utf8.count != 1 })
}
