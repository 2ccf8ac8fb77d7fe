import Foundation

/// A topic's key terms with their definitions: an OpenStax module's glossary (and the terms it
/// emphasises, with the sentence that introduces them), then the definition sentences of its
/// text ("X is a Y that …", "X refers to …", "X, or Y, is …", "… is called X", a term in bold).
enum KeyTermExtraction {
    /// The longest term a definition sentence may name: longer subjects are clauses, not terms.
    static let maximumTermWords = 4

    static func keyTerms(in passages: [Passage]) -> [KeyTerm] {
        var terms: [KeyTerm] = []
        var seen = Set<String>()
        func add(_ term: String, _ definition: String, _ passage: Passage, _ basis: KeyTermBasis) {
            let term = term.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
            let definition = definition.trimmingCharacters(in: .whitespacesAndNewlines)
            let key = TermMatcher.stems(term).joined(separator: " ")
            guard !key.isEmpty, !definition.isEmpty, seen.insert(key).inserted else { return }
            terms.append(KeyTerm(term: term, definition: definition, origin: .source, passageId: passage.id, basis: basis))
        }
        // The glossary first: its definitions are the source's own; then the terms the text
        // emphasises ("Key Terms"), with the sentence that introduces them.
        let glossaries = passages.filter { $0.kind == .glossary }
        for passage in glossaries.filter({ $0.sectionPath.last == "Glossary" }) + glossaries.filter({ $0.sectionPath.last != "Glossary" }) {
            // The book's glossary is its own; a module's "Key Terms" list is what it emphasises.
            let basis: KeyTermBasis = passage.sectionPath.last == "Glossary" ? .glossary : .emphasised
            for (term, meaning) in glossaryEntries(passage.text) { add(term, meaning, passage, basis) }
        }
        for passage in passages where passage.kind == .text || passage.kind == .transcript || passage.kind == .list {
            for line in passage.text.split(separator: "\n") {
                for sentence in SentenceSplitter.split(String(line)).map(\.text) {
                    // A defined term needs a defining clause ("X is a …", "X refers to …", "… called X"),
                    // not any sentence it opens ("Ours is not a drive for power …").
                    if let found = definedTermAndBasis(in: sentence),
                       found.basis != .defined || (DefiningSentence.isDefiningClause(clean(sentence), term: found.term)
                           || DefiningSentence.isAppositiveDefinition(clean(sentence))) && !describesAnExample(sentence) {
                        add(found.term, clean(sentence), passage, found.basis)
                    }
                }
            }
        }
        return terms
    }

    /// "term: meaning" lines of a glossary passage (heading lines and bare terms are skipped).
    static func glossaryEntries(_ text: String) -> [(term: String, meaning: String)] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.range(of: ": ") else { return nil }
            let term = String(line[..<colon.lowerBound]).trimmingCharacters(in: .whitespaces)
            let meaning = String(line[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
            guard !term.isEmpty, term.split(separator: " ").count <= 8, !meaning.isEmpty else { return nil }
            return (term, meaning)
        }
    }

    /// "X is an example of Y": what X illustrates, not what it is.
    static func describesAnExample(_ sentence: String) -> Bool {
        sentence.range(of: #"\b(?:is|are) (?:an|one|another|other) (?:example|instance)"#,
                       options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// The term a sentence defines, if it is a definition sentence.
    static func definedTerm(in sentence: String) -> String? {
        definedTermAndBasis(in: sentence)?.term
    }

    /// The term a sentence defines and whether it is emphasised (bold) or defined in words.
    static func definedTermAndBasis(in sentence: String) -> (term: String, basis: KeyTermBasis)? {
        var text = sentence.trimmingCharacters(in: .whitespacesAndNewlines)
        // A list item's mark ("- Osmosis is …") is not part of its sentence; a bold term's is.
        while let first = text.first, "-•*–·".contains(first), !text.hasPrefix("**") { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        // A term set in bold (Markdown keeps it): "**Glycolysis** splits glucose …".
        if let bold = firstMatch(#"\*\*([^*]{2,60})\*\*"#, in: text), isTerm(bold), text.count > bold.count + 20 {
            return (bold, .emphasised)
        }
        for pattern in patterns {
            if let term = matches(pattern, in: text).compactMap(beforeItsVerb).first(where: isTerm) { return (term, .defined) }
        }
        return nil
    }

    /// Verbs a lazily matched term runs into ("known as Neo-Confucianism became prominent").
    static let verbs: Set<String> = [
        "became", "becomes", "become", "was", "were", "has", "have", "had", "remained", "remains", "emerged", "began",
        "gained", "grew", "spread", "developed", "arose", "came", "took", "made", "gave", "led", "lived", "wrote", "held",
        "argued", "claimed", "said", "says", "can", "could", "may", "might", "must", "will", "would", "should", "did", "does",
    ]

    /// The term before an adverb or a verb it ran into: "Neo-Confucianism became prominent" →
    /// "Neo-Confucianism", "Epicurean often" → "Epicurean"; nil when nothing is left.
    static func beforeItsVerb(_ candidate: String) -> String? {
        let words = candidate.split(separator: " ")
        guard let head = words.first else { return nil }
        // (The first word stays: "Even numbers" is a term.)
        let kept = [head] + words.dropFirst().prefix { word in
            let folded = word.lowercased()
            return !verbs.contains(folded) && !DefiningSentence.adverbs.contains(folded)
                && !(folded.count >= 6 && folded.hasSuffix("ly") && word.first?.isLowercase == true && !lyNouns.contains(folded))
        }
        return kept.joined(separator: " ")
    }

    /// Words in -ly that are nouns or adjectives of a term, not adverbs.
    static let lyNouns: Set<String> = ["family", "assembly", "monopoly", "anomaly", "supply", "butterfly", "homily", "melancholy", "oligopoly", "holy", "jelly", "rally", "italy"]

    /// Definition forms, each capturing the term. The subject patterns are anchored at the
    /// sentence start (after an article), so "It is a …" and mid-sentence clauses are not terms.
    static let patterns: [String] = [
        // "X, or Y, is …" / "X (Y) is …"
        #"^(?:The |A |An )?([A-Za-z][\w\- ]{1,50}?),? (?:or|also called|also known as) [^,]{2,50}, (?:is|are|refers? to) "#,
        #"^(?:The |A |An )?([A-Za-z][\w\- ]{1,50}?) \([^)]{1,40}\) (?:is|are|refers? to) "#,
        // "X refers to …", "X is defined as …", "X means …"
        #"^(?:The term |The |A |An )?([A-Za-z][\w\- ]{1,50}?) (?:refers? to|is defined as|are defined as|is the term for|means) "#,
        // "X is a/an/the Y that|which|who|of|in|where|by|used …"
        #"^(?:The |A |An )?([A-Za-z][\w\- ]{1,50}?) (?:is|are) (?:a |an |the )?[\w\- ]{2,60}? (?:that|which|who|whose|where|by which|in which|of|for|used|made|consisting|bounded) "#,
        // "… is called X." / "… a process called X."
        #" (?:called|known as|termed) (?:the |a |an )?([A-Za-z][\w\- ]{1,40}?)[.,;:]"#,
    ]

    /// Subjects that are pronouns, vague nouns or clauses are not terms.
    static func isTerm(_ candidate: String) -> Bool {
        let words = candidate.split(separator: " ").map { $0.lowercased() }
        guard let first = words.first, words.count <= maximumTermWords, candidate.count >= 3 else { return false }
        if vague.contains(first) || vague.contains(words.last!) || prepositions.contains(first) { return false }
        // A subject holding a determiner or a verb after its first word is a clause, not a term.
        if words.dropFirst().contains(where: { clauseWords.contains($0) }) { return false }
        return !words.allSatisfy { ContentWords.stopwords.contains($0) || KeyPhrases.spokenFillers.contains($0) }
    }

    static let clauseWords: Set<String> = [
        "is", "are", "was", "were", "be", "and", "but", "if", "when", "because", "the", "that", "this", "these", "those",
        "one", "no", "not", "which", "who", "it", "its", "their", "we", "you", "they", "all", "any", "some",
    ]

    static let prepositions = ContentWords.prepositions

    static let vague: Set<String> = [
        "others", "another", "both", "either", "neither", "nothing", "everything", "something", "someone", "everyone",
        "it", "this", "that", "these", "those", "there", "here", "he", "she", "they", "we", "you", "i", "one", "what",
        "which", "who", "result", "answer", "problem", "point", "idea", "reason", "goal", "question", "thing", "things",
        "key", "difference", "main", "first", "second", "next", "last", "other", "same", "way", "fact", "example",
        "case", "only", "best", "simplest", "easiest", "important", "following", "above", "below", "today", "so",
        "now", "then", "also", "each", "every", "all", "some", "many", "most", "such", "our", "their", "his", "her",
        "its", "my", "your", "well", "yes", "okay", "and", "but", "or", "if", "a", "an", "the", "part", "rest",
        "purpose", "aim", "focus", "topic", "lesson", "chapter", "section", "figure", "table", "video",
    ]

    /// The patterns, compiled once each (compiled per call, they were 12% of a course's build).
    private static let compiled = Locked<[String: NSRegularExpression]>([:])

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        if let cached = compiled.withLock({ $0[pattern] }) { return cached }
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        compiled.withLock { $0[pattern] = regex }
        return regex
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = regex(pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: text) else { return nil }
            return String(text[range]).trimmingCharacters(in: .whitespaces)
        }
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = regex(pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range]).trimmingCharacters(in: .whitespaces)
    }

    /// The sentence as a definition: one line, Markdown emphasis marks removed.
    private static func clean(_ sentence: String) -> String {
        var text = TextCleanup.collapseWhitespace(sentence.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: ""))
        while let first = text.first, "-•*–·".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        return text
    }
}
