import Foundation

/// Learning objectives written offline for a topic whose source states none: "Explain" its
/// subject, "Describe" its sections, "Define" its key terms; two to five, no two alike.
enum OfflineObjectives {
    static let maximum = 5

    /// Section titles that name a part of a textbook's apparatus, not a subject to learn.
    static let apparatus: Set<String> = [
        "learning objectives", "introduction", "summary", "glossary", "key terms", "key concepts", "review questions",
        "further reading", "references", "exercises", "problems", "practice", "critical thinking", "overview",
        "conclusion", "conclusions", "notes", "questions", "answers", "solutions", "think like a philosopher",
        "connections", "write like a philosopher", "read like a philosopher", "abstract", "contents", "index",
    ]

    /// `passages`: the topic's text, when at hand, so that a capitalised word of a title that
    /// the text writes in lower case is written in lower case in the objective.
    static func objectives(title: String, headings: [String], keyTerms: [KeyTerm], passages: [TopicPassage] = []) -> [String] {
        let lowerCaseWords = commonWords(passages.map(\.text) + keyTerms.map(\.definition))
        func subject(_ heading: String) -> String { inSentence(heading, commonWords: lowerCaseWords) }
        var statements: [String] = []
        var seen = Set<String>()
        func add(_ statement: String) {
            let key = TermMatcher.stems(statement).dropFirst().joined(separator: " ")
            guard !key.isEmpty, statements.count < maximum, seen.insert(key).inserted else { return }
            statements.append(statement)
        }
        let title = withoutNumber(title)
        if !title.isEmpty, !apparatus.contains(title.lowercased()) {
            add(title.hasSuffix("?") ? "Answer the question “\(title)”" : "Explain \(subject(title))")
        }
        let terms = keyTerms.map(\.term).filter { !$0.isEmpty }
        if !terms.isEmpty {
            add("Define " + list(terms.prefix(3).map { inSentence($0, commonWords: lowerCaseWords) }))
        }
        var seenHeadings = Set([title.lowercased()])
        for heading in headings {
            let clean = withoutNumber(heading)
            guard !clean.isEmpty, !apparatus.contains(clean.lowercased()), seenHeadings.insert(clean.lowercased()).inserted else { continue }
            if statements.count >= maximum - (terms.count > 3 ? 1 : 0) { break }
            add(clean.hasSuffix("?") ? "Answer the question “\(clean)”" : "Describe \(subject(clean))")
        }
        if terms.count > 3 { add("Define " + list(terms.dropFirst(3).prefix(3).map { inSentence($0, commonWords: lowerCaseWords) })) }
        // Two at least: the subject's key ideas in the learner's own words.
        if statements.count < 2, !title.isEmpty {
            add("Summarise the main ideas of \(title.hasSuffix("?") ? "“\(title)”" : subject(title))")
        }
        if statements.count < 2 { add("Summarise the main ideas of this topic") }
        return statements
    }

    /// A heading without its section number: "2.1 Oxidative phosphorylation" → "Oxidative
    /// phosphorylation", "Chapter 3: Logic" → "Logic".
    static func withoutNumber(_ heading: String) -> String {
        var text = heading.trimmingCharacters(in: .whitespacesAndNewlines)
        if let number = text.range(of: #"^(?:(?:Chapter|Section|Unit|Part|Lecture)\s+)?(?:\d+(?:\.\d+)*|[IVXLC]+)[.:)]?\s+"#,
                                   options: [.regularExpression, .caseInsensitive]), number.upperBound < text.endIndex {
            text = String(text[number.upperBound...])
        }
        return text
    }

    /// "a, b and c".
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    /// A title as words inside a sentence: "Cellular Respiration" → "cellular respiration",
    /// keeping acronyms ("ATP"), names the text capitalises ("Calvin"), and words written with
    /// inner capitals; trailing punctuation goes.
    static func inSentence(_ title: String, commonWords: Set<String>) -> String {
        var text = withoutNumber(title)
        while let last = text.last, ".:;!".contains(last) { text.removeLast() }
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let titleCased = words.filter { $0.first?.isLetter == true }.allSatisfy { $0.first!.isUppercase || minorWords.contains($0) }
        return words.enumerated().map { index, word in
            guard let first = word.first, first.isUppercase else { return word }
            if word.dropFirst().contains(where: \.isUppercase) { return word }
            let lower = word.lowercased()
            // In a sentence-case title only the first word is capitalised for position's sake.
            if !titleCased && index > 0 { return word }
            if commonWords.isEmpty { return minorWords.contains(lower) || index == 0 || titleCased ? lower : word }
            let parts = lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            return minorWords.contains(lower) || (!parts.isEmpty && parts.allSatisfy(commonWords.contains)) ? lower : word
        }.joined(separator: " ")
    }

    static let minorWords: Set<String> = ["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "from", "into", "vs"]

    /// Words the text writes in lower case at least once (inside a sentence): common nouns.
    static func commonWords(_ texts: [String]) -> Set<String> {
        var words = Set<String>()
        for text in texts {
            for word in ContentWords.surface(text) where word.first?.isLowercase == true {
                words.insert(word)
            }
        }
        return words
    }
}
