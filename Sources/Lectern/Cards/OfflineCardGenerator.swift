import Foundation

/// Cards made without a model from what a topic already holds: its glossary (term → meaning),
/// sentences that use a key term, definition sentences ("X is a Y that …", "X refers to …")
/// and learning objectives a passage answers. Candidates only: grounding and dedup come after.
struct OfflineCardGenerator: Sendable {
    /// A meaning up to this many words also makes the reverse card (meaning → term).
    var reverseMeaningWords = 12
    /// Sentences outside this length (in words) make poor cloze or answer text.
    var sentenceWords = 6...60

    func candidates(for topic: Topic, in deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        let prose = topic.passages.filter { [.text, .list, .transcript, .caption].contains($0.kind) }
        let sentences = prose.flatMap { passage in
            SentenceSplitter.split(passage.text).map { (passage: passage, text: $0.text) }
        }
        for term in topic.keyTerms {
            cards += keyTermCards(term, topic: topic, sentences: sentences, deck: deck)
        }
        cards += definitionCards(topic: topic, sentences: sentences, deck: deck)
        cards += objectiveCards(topic: topic, prose: prose, deck: deck)
        return cards
    }

    // MARK: Key terms

    private func keyTermCards(_ term: KeyTerm, topic: Topic, sentences: [(passage: TopicPassage, text: String)],
                              deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        let name = clean(term.term)
        let meaning = clean(term.definition)
        guard !name.isEmpty else { return [] }
        if !meaning.isEmpty {
            let passage = term.passageId.flatMap { id in topic.passages.first { $0.passageId == id } }
                ?? topic.passages.first { $0.kind == .glossary && contains($0.text, name) }
                ?? topic.passages.first { contains($0.text, name) }
            if let passage {
                let words = WordTokenizer.words(meaning).count
                let type: CardNoteType = words <= reverseMeaningWords ? .basicReversed : .basic
                cards.append(deck.card(topic: topic, type: type, front: name, back: meaning,
                                       origin: passage.kind == .glossary || term.origin == .source ? .glossary : .keyTerm,
                                       passage: passage))
            }
        }
        // The first sentence of the topic's prose that uses the term, with the term deleted.
        if let (passage, sentence) = sentences.first(where: { sentenceWords.contains(WordTokenizer.words($0.text).count) && contains($0.text, name) }),
           let range = sentence.range(of: name, options: [.caseInsensitive, .diacriticInsensitive]) {
            let cloze = sentence.replacingCharacters(in: range, with: "{{c1::\(sentence[range])}}")
            cards.append(deck.card(topic: topic, type: .cloze, front: cloze, back: meaning.isEmpty ? "" : "\(name): \(meaning)",
                                   origin: .keyTerm, passage: passage))
        }
        return cards
    }

    // MARK: Definition sentences

    /// "X is a Y …", "X are the Y …", "X refers to Y", "X is defined as Y", "X means Y".
    nonisolated(unsafe) private static let definitionPatterns: [(Regex<(Substring, Substring, Substring, Substring)>, String)] = [
        (try! Regex(#"^(?:The |An? )?([^,;:()]{2,48}?) (refers? to) (.{8,})$"#), "What does %@ refer to?"),
        (try! Regex(#"^(?:The |An? )?([^,;:()]{2,48}?) ((?:is|are) defined as) (.{8,})$"#), "How is %@ defined?"),
        (try! Regex(#"^(?:The |An? )?([^,;:()]{2,48}?) (means) (.{8,})$"#), "What does %@ mean?"),
        (try! Regex(#"^(?:The |An? )?([^,;:()]{2,48}?) (is|are) ((?:an?|the|one of the) .{8,})$"#), "What %@ %@?"),
    ]

    /// Subjects that point back rather than name something ("This is a …", "It refers to …").
    private static let pointingWords: Set<String> = [
        "this", "that", "it", "these", "those", "there", "he", "she", "they", "what", "which", "who", "one", "here",
        "such", "each", "another", "i", "we", "you", "his", "her", "their", "its", "our", "my", "your", "all", "some",
    ]

    private func definitionCards(topic: Topic, sentences: [(passage: TopicPassage, text: String)], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        for (passage, sentence) in sentences {
            let trimmed = sentence.trimmingCharacters(in: .whitespacesAndNewlines)
            guard sentenceWords.contains(WordTokenizer.words(trimmed).count) else { continue }
            for (pattern, question) in Self.definitionPatterns {
                guard let match = try? pattern.wholeMatch(in: trimmed) else { continue }
                let subject = String(match.output.1)
                let verb = String(match.output.2)
                var predicate = String(match.output.3)
                let subjectWords = WordTokenizer.words(subject)
                guard (1...4).contains(subjectWords.count), let first = subjectWords.first,
                      !Self.pointingWords.contains(first), !CardGrounding.functionWords.contains(first),
                      subject.first.map({ $0.isLetter }) == true else { break }
                if predicate.last == "." { predicate.removeLast() }
                let front = question.contains("%@ %@")
                    ? "What \(verb) \(subject)?"
                    : question.replacingOccurrences(of: "%@", with: subject)
                cards.append(deck.card(topic: topic, type: .basic, front: front, back: upperFirst(predicate),
                                       origin: .definition, passage: passage))
                guard let range = trimmed.range(of: subject) else { break }
                let cloze = trimmed.replacingCharacters(in: range, with: "{{c1::\(subject)}}")
                cards.append(deck.card(topic: topic, type: .cloze, front: cloze, back: "", origin: .definition, passage: passage))
                break
            }
        }
        return cards
    }

    // MARK: Objectives

    /// Verbs objectives start with, which say what to do rather than what about.
    private static let objectiveVerbs: Set<String> = [
        "explain", "describe", "identify", "define", "discuss", "compare", "contrast", "summarize", "summarise",
        "evaluate", "analyze", "analyse", "recognize", "recognise", "understand", "distinguish", "articulate",
        "outline", "list", "name", "state", "classify", "apply", "demonstrate", "examine", "assess", "interpret",
        "differentiate", "characterize", "trace", "connect", "relate", "consider", "learn", "know", "use",
    ]

    private func objectiveCards(topic: Topic, prose: [TopicPassage], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        for objective in topic.objectives {
            let statement = clean(objective.statement)
            let asked = Set(CardGrounding.contentStems(statement)).subtracting(Self.objectiveVerbs.map(PorterStemmer.stem))
            guard asked.count >= 2 else { continue }
            // The passage sentence pair that shares most of the objective's words answers it.
            var best: (passage: TopicPassage, sentences: [String], score: Int)?
            for passage in prose {
                let sentences = SentenceSplitter.split(passage.text).map(\.text)
                for index in sentences.indices {
                    let window = Array(sentences[index..<min(index + 2, sentences.count)])
                    let covered = asked.intersection(PorterStemmer.stems(window.joined(separator: " "))).count
                    if covered > (best?.score ?? 0) { best = (passage, window, covered) }
                }
            }
            guard let best, Double(best.score) >= Double(asked.count) * 0.6, best.score >= 2 else { continue }
            let answer = best.sentences.joined(separator: " ")
            guard WordTokenizer.words(answer).count <= 90 else { continue }
            cards.append(deck.card(topic: topic, type: .basic, front: question(from: statement), back: answer,
                                   origin: .objective, passage: best.passage))
        }
        return cards
    }

    /// "Define ethics." → "What is ethics?"; other objectives stay as the task they set.
    private func question(from statement: String) -> String {
        var text = statement.trimmingCharacters(in: CharacterSet(charactersIn: " .;:"))
        if text.lowercased().hasPrefix("define "), WordTokenizer.words(text).count <= 6 {
            return "What is \(text.dropFirst(7))?"
        }
        text = upperFirst(text)
        return text.hasSuffix("?") ? text : text + "."
    }

    // MARK: Text

    private func clean(_ text: String) -> String {
        TextCleanup.collapseWhitespace(text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func upperFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// Whether `text` holds `term` as whole words, in any case.
    private func contains(_ text: String, _ term: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let range = text.range(of: term, options: [.caseInsensitive, .diacriticInsensitive], range: searchRange) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false) && !(after?.isLetter ?? false) { return true }
            searchRange = range.upperBound..<text.endIndex
        }
        return false
    }
}
