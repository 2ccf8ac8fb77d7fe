import Foundation

/// Cards made without a model from what a topic already holds: its glossary (term → meaning),
/// sentences that use a key term, definition sentences ("X is a Y that …", "X refers to …")
/// and learning objectives a passage answers. Candidates only: grounding and dedup come after.
struct OfflineCardGenerator: Sendable {
    /// A meaning up to this many words also makes the reverse card (meaning → term).
    var reverseMeaningWords = 12
    /// Sentences outside this length (in words) make poor cloze or answer text.
    var sentenceWords = 6...60

    /// A sentence of the topic's prose with what the generators look for in it, made once.
    struct Sentence {
        let passage: Passage
        let text: String
        /// Folded words, in order.
        let words: [String]
        let stems: Set<String>
    }

    func candidates(for topic: Topic, in deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        let prose = topic.passages.filter { [.text, .list, .transcript, .caption].contains($0.kind) }
        let sentences = prose.flatMap { passage in
            // Line by line: a heading or a speaker's name ("Instructor: …") is no sentence's start.
            passage.text.split(separator: "\n").flatMap { SentenceSplitter.split(String($0)) }.compactMap { piece -> Sentence? in
                // A figure's credit line is no statement to learn.
                guard !piece.text.contains("(credit:") else { return nil }
                let words = PorterStemmer.foldedWords(piece.text)
                // A list item's mark ("- ", "• ") is no part of the sentence a card shows.
                let text = TextCleanup.collapseWhitespace(piece.text).trimmingCharacters(in: .whitespacesAndNewlines)
                    .replacingOccurrences(of: #"^[-•*–] +"#, with: "", options: .regularExpression)
                    .droppingLostReferences
                return Sentence(passage: passage, text: text, words: words, stems: Set(words.map(PorterStemmer.cachedStem)))
            }
        }
        // "X is called A and the B that … is called C": where the sentence leans on its passage
        // ("This odd motion is called …"), its second naming can stand alone.
        let keyTermSentences = sentences + sentences.compactMap(Self.secondNaming)
        // "… uses the analogy of the town crier to describe …": what an analogy borrows is its
        // passage's picture, not a term of the subject.
        let vehicles = Self.analogyVehicles(prose.map(\.text))
        for term in topic.keyTerms where !Self.isVehicle(term.term, of: vehicles) {
            cards += keyTermCards(term, topic: topic, sentences: keyTermSentences, deck: deck)
        }
        cards += environmentCards(topic: topic, prose: prose, deck: deck)
        cards += formulaCards(topic: topic, prose: prose, deck: deck)
        cards += statedFactCards(topic: topic, prose: prose, deck: deck)
        cards += exampleCards(topic: topic, prose: prose, deck: deck)
        cards += definitionCards(topic: topic, sentences: sentences, deck: deck).filter { card in
            let subject = card.noteType == .cloze
                ? card.front.range(of: #"(?<=\{\{c1::)[^}]+"#, options: .regularExpression).map { String(card.front[$0]) } ?? ""
                : Self.askedSubject(card.front)
            return !Self.isVehicle(subject, of: vehicles)
        }
        cards += objectiveCards(topic: topic, sentences: sentences, deck: deck)
        return cards
    }

    // MARK: Key terms

    private func keyTermCards(_ term: KeyTerm, topic: Topic, sentences: [Sentence], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        let name = clean(term.term)
        let meaning = clean(term.definition)
        let nameWords = PorterStemmer.foldedWords(name)
        guard !name.isEmpty, !nameWords.isEmpty else { return [] }
        if !meaning.isEmpty {
            let passage = term.passageId.flatMap { id in topic.passages.first { $0.id == id } }
                ?? topic.passages.first { $0.kind == .glossary && Self.contains(PorterStemmer.foldedWords($0.text), nameWords) }
            // A term mined from a defining sentence gets its Basic card from that sentence
            // ("What is X?", below); term → whole sentence would ask the same less clearly.
            if let passage, passage.kind == .glossary || term.basis == .glossary || term.basis == .emphasised {
                let words = WordTokenizer.words(meaning).count
                // A meaning that names the term gives the reverse card away.
                let namesTerm = Self.contains(PorterStemmer.foldedWords(meaning), nameWords)
                let type: CardNoteType = words <= reverseMeaningWords && !namesTerm ? .basicReversed : .basic
                cards.append(deck.card(topic: topic, type: type, front: name, back: meaning,
                                       origin: passage.kind == .glossary || term.basis == .glossary ? .glossary : .keyTerm,
                                       passage: passage))
            }
        }
        // A sentence of the topic's prose about the term, with the term deleted: one that defines
        // it, else (for a term the glossary names or a sentence defines) one that opens with it
        // and says what it holds or does ("Virtue ethics focuses on …").
        // A sentence leaning on its neighbours ("These numerical representations …") is no card.
        let named = term.basis != .heading
            || term.passageId.flatMap { id in topic.passages.first { $0.id == id } }?.kind == .glossary
        // (A lecturer's symbol, "Capital omega", is no term to recall.)
        let label = SymbolLabel.isLabel(name)
        let usable = sentences.filter {
            sentenceWords.contains($0.words.count) && Self.contains($0.words, nameWords) && StandaloneSentence.dependence($0.text) == nil
                && !(label && $0.passage.kind == .transcript)
        }
        if let sentence = usable.first(where: { Self.defines($0.text, term: name) }) ?? (named ? usable.first { StandaloneSentence.characterises($0.words, nameWords) } : nil),
           let range = sentence.text.range(of: name, options: [.caseInsensitive]) {
            let cloze = sentence.text.replacingCharacters(in: range, with: "{{c1::\(sentence.text[range])}}")
            // A meaning that points into its passage ("So this special case …") would confuse the back.
            let back = meaning.isEmpty || StandaloneSentence.pointing(meaning) != nil ? "" : "\(name): \(meaning.droppingLostReferences)"
            cards.append(deck.card(topic: topic, type: .cloze, front: cloze, back: back, origin: .keyTerm, passage: sentence.passage, at: sentence.text))
        }
        return cards
    }

    /// The second of two namings joined by "and" ("… is called A and the B that … is called C"),
    /// as a sentence of its own, where the whole sentence leans on its passage and the second
    /// naming does not.
    static func secondNaming(_ sentence: Sentence) -> Sentence? {
        guard sentence.text.contains(" and the "), sentence.text.contains(" called ") || sentence.text.contains(" known as ")
                || sentence.text.contains(" termed ") || sentence.text.contains(" named "),
              let second = sentence.text.range(of: #"(?<=\b(?:is|are) (?:called|known as|termed|named) [^,;]{1,60}),? and (?=the [^,;]+? (?:is|are) (?:called|known as|termed|named) [^,;]+\.$)"#,
                                               options: .regularExpression),
              StandaloneSentence.dependence(sentence.text) != nil else { return nil }
        let rest = sentence.text[second.upperBound...]
        let text = rest.prefix(1).uppercased() + rest.dropFirst()
        guard StandaloneSentence.dependence(text) == nil else { return nil }
        let words = PorterStemmer.foldedWords(text)
        return Sentence(passage: sentence.passage, text: text, words: words, stems: Set(words.map(PorterStemmer.cachedStem)))
    }

    /// The words after "the analogy of", "the metaphor of" that the text borrows "to describe",
    /// "to explain" … something else (folded), one list per mention ("The metaphor of flow also
    /// resembles …" is about flow itself).
    static func analogyVehicles(_ texts: [String]) -> [[String]] {
        texts.flatMap { text -> [[String]] in
            guard text.contains("nalogy") || text.contains("etaphor") else { return [] }
            let regex = try! NSRegularExpression(pattern: #"\b(?:analogy|metaphor) (?:of|with) (?:a |an |the )?([\p{L}-]+(?: [\p{L}-]+){0,5}?) to (?:describe|explain|illustrate|show|convey|capture)\b"#, options: [.caseInsensitive])
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
                Range(match.range(at: 1), in: text).map { WordTokenizer.words(String(text[$0])).map(WordTokenizer.fold) }
            }
        }
    }

    /// Whether `term` opens an analogy's picture ("front door" of "the front door of a house").
    static func isVehicle(_ term: String, of vehicles: [[String]]) -> Bool {
        var words = WordTokenizer.words(term).map(WordTokenizer.fold)
        if let first = words.first, ["the", "a", "an"].contains(first) { words.removeFirst() }
        return !words.isEmpty && vehicles.contains { $0.starts(with: words) }
    }

    /// The subject a "What is X?" question asks about.
    static func askedSubject(_ question: String) -> String {
        question.replacingOccurrences(of: #"^What (?:is|are|does|do) (?:the term )?|(?: refer to| mean)?\?$"#, with: "", options: .regularExpression)
    }

    /// Whether `sentence` defines `term` ("X is a …", "… is called X", "X, or Y, is …").
    static func defines(_ sentence: String, term: String) -> Bool {
        DefiningSentence.isDefiningClause(sentence, term: term)
            || (DefiningSentence.isAppositiveDefinition(sentence) && opens(PorterStemmer.foldedWords(sentence), with: PorterStemmer.foldedWords(term)))
    }

    /// Whether `words` open with `phrase`, after an article: the sentence is about the term.
    static func opens(_ words: [String], with phrase: [String]) -> Bool {
        let start = words.first.map { ["the", "a", "an"].contains($0) } == true ? 1 : 0
        return words.count >= start + phrase.count && words[start..<(start + phrase.count)].elementsEqual(phrase)
    }

    /// Whether `words` holds `phrase` as consecutive words.
    static func contains(_ words: [String], _ phrase: [String]) -> Bool {
        guard let first = phrase.first, words.count >= phrase.count else { return false }
        for start in 0...(words.count - phrase.count) where words[start] == first {
            if phrase.count == 1 || words[(start + 1)..<(start + phrase.count)].elementsEqual(phrase.dropFirst()) { return true }
        }
        return false
    }

    // MARK: Definition, theorem and rule environments

    /// Statements longer than this (in words) are several facts, not one card.
    var environmentWords = 4...100

    /// "Definition 1.2 (metric space)" → its statement. An environment that names no term
    /// ("Satz 3.5"), and a statement whose mathematics the PDF broke, make no card: a learner
    /// could not tell what is asked or read the answer.
    private func environmentCards(topic: Topic, prose: [Passage], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        for (index, passage) in prose.enumerated() {
            // (The statement as the PDF printed it: "x ≠ y", not the text layer's "x 6= y"; a block
            // the chunker cut after its premises read on into the next passage.)
            for block in StatementBlocks.blocks(in: StatementBlocks.readingText(prose, at: index)) where block.readable {
                guard environmentWords.contains(WordTokenizer.words(block.statement).count) else { continue }
                // "Satz 3.5" alone asks nothing a learner could tell without the notes' numbering.
                guard let term = block.term else { continue }
                let front = "\(block.name) (\(term))"
                cards.append(deck.card(topic: topic, type: .basic, front: front, back: block.statement, origin: .environment, passage: passage))
            }
        }
        return cards
    }

    // MARK: Formulas

    /// "Newton's second law: \(F\) = ?" → "\(F = m a\)": each relation the topic's prose states
    /// as a law or a quantity's definition, once per topic, with what its symbols name.
    private func formulaCards(topic: Topic, prose: [Passage], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        var asked = Set<String>()
        // A problem's "given" relations are its particulars, not laws.
        for passage in prose where PassageReading.sectionReason(passage.sectionPath.last.map { $0.lowercased() } ?? "", kind: passage.kind) == nil {
            for statement in FormulaStatements.statements(in: passage.text) {
                let front = FormulaStatements.front(of: statement, topicTitle: topic.title)
                // One card per relation in a topic, whether a law or a quantity names it.
                guard asked.insert(FormulaStatements.relationKey(statement)).inserted else { continue }
                cards.append(deck.card(topic: topic, type: .basic, front: front, back: FormulaStatements.back(of: statement),
                                       origin: .formula, passage: passage, at: statement.said))
            }
        }
        return cards
    }

    // MARK: Stated facts

    /// "What does Newton's third law state?", "What is the SI unit of power?": facts the topic's
    /// prose states in running text (`StatedFacts`), from sentences the source asserts (not
    /// inside an example, a hypothetical, a question or an exercise), each asked once a topic.
    private func statedFactCards(topic: Topic, prose: [Passage], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        var asked = Set<String>()
        // Most prose states none: a look for the words every shape needs keeps a book fast.
        for passage in prose where StatedFacts.mayState(passage.text) {
            for sentence in PassageReading(passage).sentences where sentence.notAsserted == nil {
                for fact in StatedFacts.facts(in: sentence.text) where asked.insert(fact.front.lowercased()).inserted {
                    cards.append(deck.card(topic: topic, type: .basic, front: fact.front, back: fact.back, origin: .statement, passage: passage, at: sentence.text))
                }
            }
        }
        return cards
    }

    // MARK: Examples of a concept

    /// "Here's an example:", "Take the following example:" closing the paragraph before an example.
    static func introducesExample(_ paragraph: String) -> Bool {
        paragraph.range(of: #"(?:[Hh]ere(?:’|')?s an example|[Hh]ere is an example|[Tt]ake the following example|[Cc]onsider the following example|[Hh]ere is an example of (?:this|such)[^:]*)\s*:$"#,
                        options: .regularExpression) != nil
    }

    /// Words an example shown as a card has: enough to recognise it, few enough to read.
    var exampleWords = 12...90

    /// The paragraphs of `text` that are examples, each with the paragraph introducing it.
    static func examples(in text: String) -> [(intro: String, example: String)] {
        let paragraphs = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return paragraphs.indices.dropLast().filter { introducesExample(paragraphs[$0]) }.map { (paragraphs[$0], paragraphs[$0 + 1]) }
    }

    /// "Which fallacy does this example show? “I know the allegations … drop the charges.”" →
    /// "Appeal to emotion": an example the source gives right after a paragraph naming exactly one
    /// of the topic's glossary or defined terms, the example itself not naming it.
    private func exampleCards(topic: Topic, prose: [Passage], deck: CardDeckContext) -> [Flashcard] {
        let concepts = topic.keyTerms.filter { $0.basis == .glossary || $0.basis == .defined }
            .map { (term: $0, stems: PorterStemmer.foldedWords($0.term).map(PorterStemmer.cachedStem)) }
            .filter { !$0.stems.isEmpty }
        guard !concepts.isEmpty else { return [] }
        var cards: [Flashcard] = []
        for passage in prose where passage.kind == .text {
            for (intro, example) in Self.examples(in: passage.text) {
                guard exampleWords.contains(WordTokenizer.words(example).count) else { continue }
                // "Senator: …", "Statement 1: …": one voice of a dialogue or one of several statements;
                // the paragraphs after it may be what makes it the example (the strawman's reply).
                guard example.range(of: #"^[A-Z][\w’']*(?: [\w’']+)?(?: \d+)?: "#, options: .regularExpression) == nil else { continue }
                let introStems = PorterStemmer.foldedWords(intro).map(PorterStemmer.cachedStem)
                let exampleStems = PorterStemmer.foldedWords(example).map(PorterStemmer.cachedStem)
                var named: [KeyTerm] = []
                for concept in concepts where Self.contains(introStems, concept.stems) && !named.contains(where: { CardChecks.termKey($0.term) == CardChecks.termKey(concept.term.term) }) {
                    named.append(concept.term)
                }
                // Two concepts named before the example: which it shows is not said.
                guard named.count == 1, let term = named.first,
                      !Self.contains(exampleStems, PorterStemmer.foldedWords(term.term).map(PorterStemmer.cachedStem)) else { continue }
                let front = "Which \(Self.category(of: term.definition)) does this example show? “\(example)”"
                cards.append(deck.card(topic: topic, type: .basic, front: front, back: upperFirst(clean(term.term)),
                                       origin: .example, passage: passage))
            }
        }
        return cards
    }

    /// "a fallacy of relevance that …" → "fallacy"; "concept" when the meaning opens otherwise.
    static func category(of definition: String) -> String {
        let words = WordTokenizer.words(definition).map(WordTokenizer.fold)
        guard words.count >= 2, ["a", "an", "the"].contains(words[0]) else { return "concept" }
        let head = words[1]
        let known: Set<String> = ["fallacy", "bias", "argument", "theory", "view", "principle", "method", "form", "type", "kind", "problem", "inference", "approach"]
        return known.contains(head) ? (head == "type" || head == "kind" || head == "form" ? "concept" : head) : "concept"
    }

    /// Whether `text` gives the example `card` shows, after a paragraph introducing it.
    static func givesExample(_ text: String, card: Flashcard) -> Bool {
        examples(in: text).contains { card.front.hasSuffix("“\($0.example)”") }
    }

    // MARK: Definition sentences

    /// Subjects that point back rather than name something ("This is a …", "It refers to …").
    private static let pointingWords: Set<String> = [
        "this", "that", "it", "these", "those", "there", "he", "she", "they", "what", "which", "who", "one", "here",
        "such", "each", "another", "i", "we", "you", "his", "her", "their", "its", "our", "my", "your", "all", "some",
    ]

    /// "X is a Y …", "X are the Y …", "X refers to Y", "X is defined as Y", "X means Y": the
    /// subject, the question it asks and the predicate, read from the sentence's first words.
    static func definition(in sentence: String) -> (subject: String, question: String, predicate: String)? {
        let tokens = sentence.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard tokens.count >= 4 else { return nil }
        var start = 0
        if ["the", "a", "an"].contains(tokens[0].lowercased()) { start = 1 }
        // "A relation is …" asks "What is a relation?"; the cloze deletes "relation".
        let article = start == 1 ? tokens[0].lowercased() + " " : ""
        for verbAt in (start + 1)..<min(start + 6, tokens.count - 2) {
            let verb = tokens[verbAt].lowercased()
            let next = tokens[verbAt + 1].lowercased()
            let subjectTokens = tokens[start..<verbAt]
            guard !subjectTokens.contains(where: { $0.contains(where: { ",;:()\"“”".contains($0) }) }) else { return nil }
            let subject = subjectTokens.joined(separator: " ")
            var question: String?
            var predicateStart = verbAt + 1
            switch verb {
            case "refers" where next == "to", "refer" where next == "to":
                question = "What does \(article)\(subject) refer to?"; predicateStart = verbAt + 2
            case "means":
                question = "What does \(article)\(subject) mean?"
            case "is", "are":
                if next == "defined", verbAt + 2 < tokens.count, tokens[verbAt + 2].lowercased() == "as" {
                    question = "How \(verb) \(article)\(subject) defined?"; predicateStart = verbAt + 3
                } else if ["a", "an", "the"].contains(next) || (next == "one" && verbAt + 2 < tokens.count && tokens[verbAt + 2].lowercased() == "of") {
                    question = "What \(verb) \(article)\(subject)?"
                }
            default: break
            }
            if let question {
                var predicate = tokens[predicateStart...].joined(separator: " ")
                if predicate.last == "." { predicate.removeLast() }
                guard predicate.count >= 8 else { return nil }
                return (subject, question, predicate)
            }
        }
        return nil
    }

    private func definitionCards(topic: Topic, sentences: [Sentence], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        for sentence in sentences where sentenceWords.contains(sentence.words.count) {
            guard let (subject, question, predicate) = Self.definition(in: sentence.text) else { continue }
            let subjectWords = WordTokenizer.words(subject)
            guard (1...4).contains(subjectWords.count), let first = subjectWords.first.map(WordTokenizer.fold),
                  !Self.pointingWords.contains(first), !CardGrounding.functionWords.contains(first),
                  subject.first.map({ $0.isLetter }) == true else { continue }
            // A lecturer defines the labels of one problem ("RS to J is the vector …"): only a
            // term the topic names elsewhere is worth a card from speech.
            if sentence.passage.kind == .transcript, SymbolLabel.isLabel(subject) {
                let key = CardChecks.termKey(subject)
                guard topic.keyTerms.contains(where: { CardChecks.termKey($0.term) == key }) else { continue }
            }
            cards.append(deck.card(topic: topic, type: .basic, front: question, back: upperFirst(predicate),
                                   origin: .definition, passage: sentence.passage, at: sentence.text))
            guard let range = sentence.text.range(of: subject) else { continue }
            let cloze = sentence.text.replacingCharacters(in: range, with: "{{c1::\(subject)}}")
            cards.append(deck.card(topic: topic, type: .cloze, front: cloze, back: "", origin: .definition, passage: sentence.passage, at: sentence.text))
        }
        return cards
    }

    // MARK: Objectives

    /// Verbs objectives start with, which say what to do rather than what about.
    static var objectiveStems: Set<String> { objectiveVerbs }

    private static let objectiveVerbs: Set<String> = Set([
        "explain", "describe", "identify", "define", "discuss", "compare", "contrast", "summarize", "summarise",
        "evaluate", "analyze", "analyse", "recognize", "recognise", "understand", "distinguish", "articulate",
        "outline", "list", "name", "state", "classify", "apply", "demonstrate", "examine", "assess", "interpret",
        "differentiate", "characterize", "trace", "connect", "relate", "consider", "learn", "know", "use",
    ].map(PorterStemmer.stem))

    private func objectiveCards(topic: Topic, sentences: [Sentence], deck: CardDeckContext) -> [Flashcard] {
        var cards: [Flashcard] = []
        for objective in topic.objectives {
            let statement = clean(objective.statement)
            let asked = Set(CardGrounding.contentStems(statement)).subtracting(Self.objectiveVerbs)
            // "Explain <the topic's title>" asks nothing a card can answer.
            guard asked.count >= 2, !asked.isSubset(of: CardGrounding.contentStems(topic.title)) else { continue }
            // The pair of neighbouring sentences (one passage) that shares most of the
            // objective's words answers it.
            var best: (index: Int, count: Int, score: Int)?
            for index in sentences.indices {
                var covered = asked.intersection(sentences[index].stems)
                var count = 1
                if index + 1 < sentences.count, sentences[index + 1].passage.id == sentences[index].passage.id {
                    covered.formUnion(asked.intersection(sentences[index + 1].stems))
                    count = 2
                }
                if covered.count > (best?.score ?? 0) { best = (index, count, covered.count) }
            }
            guard let best, Double(best.score) >= Double(asked.count) * 0.6, best.score >= 2 else { continue }
            let answer = sentences[best.index..<(best.index + best.count)].map(\.text).joined(separator: " ")
            guard WordTokenizer.words(answer).count <= 90 else { continue }
            cards.append(deck.card(topic: topic, type: .basic, front: question(from: statement), back: answer,
                                   origin: .objective, passage: sentences[best.index].passage, at: sentences[best.index].text))
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
}

extension String {
    /// The text without a cross-reference whose link the text layer lost ("… many customs (see )."):
    /// an empty "(see )" says nothing on a card.
    var droppingLostReferences: String {
        contains(" )") || contains("()") ? replacingOccurrences(of: #" ?\((?:[Ss]ee(?: also)?)? ?\)"#, with: "", options: .regularExpression) : self
    }
}
