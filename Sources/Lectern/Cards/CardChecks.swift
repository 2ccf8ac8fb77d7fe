import Foundation

/// Scores cards on the six checks of `CardCheck`, offline, from the topic's passages and the
/// curriculum's glossary. Every card is checked the same way whoever wrote it: the checks find
/// the sentence of the cited passage that states the answer and judge that sentence, so a
/// model's card is held to what an offline card is.
struct CardChecks: Sendable {
    /// The source's own glossary: term key → its meaning there.
    let glossary: [String: String]

    init(curriculum: Curriculum) {
        var glossary: [String: String] = [:]
        for topic in curriculum.topics {
            let glossaryPassages = Dictionary(topic.passages.filter { $0.kind == .glossary }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for term in topic.keyTerms where term.basis == .glossary || term.passageId.map({ glossaryPassages[$0] != nil }) == true {
                // A module's Key Terms sentence that only uses its term ("This chapter examines that
                // grounding by introducing political philosophy.") gives it no meaning to compare with.
                if let passage = term.passageId.flatMap({ glossaryPassages[$0] }), passage.sectionPath.last != "Glossary",
                   !Self.keyTermsSentenceSaysWhatItIs(term.definition, term: term.term) { continue }
                let key = Self.termKey(term.term)
                if !key.isEmpty, glossary[key] == nil { glossary[key] = term.definition }
            }
        }
        self.glossary = glossary
    }

    /// A term's identity for comparison: its light stems, articles dropped.
    static func termKey(_ term: String) -> String {
        var stems = TermMatcher.stems(term)
        while let first = stems.first, ["the", "a", "an"].contains(first) { stems.removeFirst() }
        return stems.joined(separator: " ")
    }

    // MARK: Scoring

    /// The cards with their `quality` set. `cards` are one topic's; the duplication check
    /// looks at the cards before each one.
    func assess(_ cards: [Flashcard], topic: Topic) -> [Flashcard] {
        var readings: [Int64: PassageReading] = [:]
        var asked: [String: String] = [:]
        return cards.map { card in
            var card = card
            let passage = topic.passages.first { $0.id == card.source.passageId }
            var reading: PassageReading?
            if let passage {
                reading = readings[passage.id] ?? PassageReading(passage)
                readings[passage.id] = reading
            }
            let statement = reading.flatMap { statementOf(card, in: $0) }
            // An environment's statement is the source's block itself, word for word.
            let verbatim = card.origin == .environment && passage.map { StatementBlocks.holds(card.back, passage: $0, topic: topic) } == true
            // A formula is the relation its passage states, read again from it.
            let stated = (card.origin == .formula && passage.map { FormulaStatements.states($0.text, card: card) } == true)
                || (card.origin == .example && passage.map { OfflineCardGenerator.givesExample($0.text, card: card) } == true)
            var checks: [CardQuality.Check] = []
            func add(_ check: CardCheck, _ failure: String?, _ success: String) {
                checks.append(.init(name: check.rawValue, passed: failure == nil, reason: failure ?? success))
            }
            // 1. Source assertion.
            if let passage, passage.kind == .glossary {
                add(.sourceAssertion, nil, "the source's glossary")
            } else if verbatim {
                add(.sourceAssertion, nil, "a definition, theorem or rule block of the source")
            } else if card.origin == .formula || card.origin == .example {
                add(.sourceAssertion, stated ? nil : "the cited passage states no such relation or example",
                    card.origin == .formula ? "a law or definition the source states" : "an example the source gives of the concept")
            } else if let statement {
                add(.sourceAssertion, statement.notAsserted ?? Self.quotedDeletion(card), "a statement of the source's own text")
            } else {
                add(.sourceAssertion, "no sentence of the cited passage states the answer", "")
            }
            // 2. Subject form.
            var subject = Self.subject(of: card)
            var definiens = card.back
            // A definition's cloze deletes the subject: its sentence is judged as the Basic card's.
            if card.noteType == .cloze, card.origin == .definition,
               let definition = OfflineCardGenerator.definition(in: ClozeText.revealed(card.front)) {
                subject = card.answer
                definiens = definition.predicate
            }
            add(.subjectForm, subject.flatMap { subjectFailure($0, definiens: definiens, card: card, passage: passage, topic: topic) },
                subject == nil ? "not a definition card" : "a term with a complete definition")
            // 3. Cloze target.
            if card.noteType == .cloze {
                add(.clozeTarget, clozeFailure(card, topic: topic), "deletes a term, name, number or formula")
            } else {
                add(.clozeTarget, nil, "not a cloze card")
            }
            // 4. Answerability.
            add(.answerability, answerFailure(card, topic: topic) ?? readabilityFailure(card), "the back answers the front")
            // 5. Grounding: one or two neighbouring sentences of the passage state the answer.
            if card.origin == .formula || card.origin == .example {
                add(.grounding, stated ? nil : "the cited passage does not state this", "stated by the cited passage")
            } else if statement != nil || passage?.kind == .glossary || verbatim {
                add(.grounding, nil, "stated by the cited passage")
            } else {
                add(.grounding, "no sentence of the cited passage holds every word of the answer", "")
            }
            // 6. Duplication: the source's own definition wins, and one front asks one thing.
            var duplicate = senseFailure(card, subject: subject, passage: passage)
            // (Two clozes of one term share a GUID: deduplication keeps one.)
            if card.noteType != .cloze {
                let key = CardIdentity.normalised(card.front)
                if duplicate == nil, let earlier = asked[key], earlier != CardIdentity.normalised(card.back) {
                    duplicate = "another card of this topic asks the same with another answer"
                }
                if asked[key] == nil { asked[key] = CardIdentity.normalised(card.back) }
            }
            add(.duplication, duplicate, "the only card teaching this")
            card.quality = CardQuality(checks)
            return card
        }
    }

    // MARK: The statement

    /// The sentence (or two neighbouring sentences) of the passage that holds the answer.
    private func statementOf(_ card: Flashcard, in reading: PassageReading) -> PassageReading.Sentence? {
        if card.noteType == .cloze {
            let revealed = PorterStemmer.foldedWords(ClozeText.revealed(card.front))
            if let exact = reading.sentences.first(where: { $0.words == revealed }) { return exact }
            let stems = Set(revealed.map(PorterStemmer.cachedStem))
            return reading.best(covering: stems)
        }
        var stems = Set(CardGrounding.contentStems(card.answer))
        // A reversed card's front is an answer too.
        if card.noteType == .basicReversed { stems.formUnion(CardGrounding.contentStems(card.front)) }
        return reading.best(covering: stems)
    }

    // MARK: Subject form

    /// Words that start a clause rather than name a thing (the one list is `DefiningSentence`’s).
    static let discourseWords = DefiningSentence.discourseWords

    /// The term a Basic card defines: the front of a glossary or key-term card, X of "What is X?".
    static func subject(of card: Flashcard) -> String? {
        guard card.noteType != .cloze else { return nil }
        switch card.origin {
        case .glossary, .keyTerm: return card.front
        case .definition, .model:
            let front = card.front.trimmingCharacters(in: .whitespaces)
            for prefix in ["What is ", "What are ", "What does ", "What do ", "How is ", "How are "] where front.hasPrefix(prefix) {
                var rest = String(front.dropFirst(prefix.count))
                guard rest.hasSuffix("?") else { return nil }
                rest.removeLast()
                for suffix in [" refer to", " mean", " defined"] where rest.hasSuffix(suffix) { rest.removeLast(suffix.count) }
                return rest
            }
            return nil
        case .objective, .environment, .formula, .example, .statement: return nil
        }
    }

    private func subjectFailure(_ subject: String, definiens: String, card: Flashcard, passage: Passage?, topic: Topic) -> String? {
        let words = WordTokenizer.words(subject)
        guard let first = words.first.map(WordTokenizer.fold) else { return "the card names no term" }
        // "RS to J is the vector", "Capital omega is …": a lecturer's labels for one problem.
        // (A term mined from the lecture's own "Xcm is …" is no evidence: only a name the source gives counts.)
        if card.origin == .definition, passage?.kind == .transcript, !isNamedTerm(subject, of: topic), SymbolLabel.isLabel(subject) {
            return "“\(subject)” is a label of the lecture, not a term of the topic or the glossary"
        }
        if Self.discourseWords.contains(first) { return "the subject “\(subject)” starts with “\(words[0])”, not a term" }
        if words.count > (card.origin == .glossary ? 8 : 6) { return "the subject “\(subject)” is a clause, not a term" }
        // "length of something", "internal forces now", "second term": no term without its context.
        if let vague = (words.count == 1 ? words[...] : words.dropFirst()).map(WordTokenizer.fold).first(where: Self.contextWords.contains) {
            return "the subject “\(subject)” holds “\(vague)”: it names nothing out of context"
        }
        // "Acquiring virtue", "Eating fruits and vegetables": an activity of one passage, not a term.
        if card.origin == .definition, words.count >= 2, let gerund = words.first.map(WordTokenizer.fold), gerund.count >= 6, gerund.hasSuffix("ing"),
           !Self.ingNouns.contains(gerund), !isNamedTerm(subject, of: topic) {
            return "the subject “\(subject)” is an activity (“\(gerund)”), not a term"
        }
        // "a second example", "the figure", "the output": a place in the text, not a term.
        let bare = words.map(WordTokenizer.fold).drop { ["the", "a", "an"].contains($0) }
        if let head = bare.last, Self.genericHeads.contains(head),
           bare.count == 1 || (bare.count == 2 && Self.ordinals.contains(bare.first!)) {
            return "the subject “\(subject)” names a place in the text, not a term"
        }
        // ("Chlorophyll a", "vitamin A": a one-letter label ends a term.)
        if let last = words.last.map(WordTokenizer.fold), CardGrounding.functionWords.contains(last), !(words.count >= 2 && last.count == 1) {
            return "the subject “\(subject)” ends in “\(last)”: half a phrase"
        }
        // "What is Mary? → A scientist who …": a person of an example, not a term.
        if card.origin == .definition, glossary[Self.termKey(subject)] == nil, let person = Self.personOfExample(subject, definiens: definiens) {
            return "“\(subject)” is a person of an example (“\(person)”), not a term"
        }
        // The definiens: a complete phrase.
        let back = definiens.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ".")))
        let backWords = WordTokenizer.words(back)
        guard backWords.count >= 2 || (card.origin == .glossary && backWords.count >= 1) else { return "the definition “\(back)” is no phrase" }
        if let last = backWords.last.map(WordTokenizer.fold), Self.danglingWords.contains(last) {
            return "the definition ends in “\(last)”: it is cut off"
        }
        // "The impulse equation is a vector equation": the definiens names the subject's kind again and no more.
        if card.origin == .definition, backWords.count <= 3, let head = backWords.last, let own = words.last,
           PorterStemmer.cachedStem(WordTokenizer.fold(head)) == PorterStemmer.cachedStem(WordTokenizer.fold(own)) {
            return "“\(Self.short(back))” repeats what “\(subject)” is a kind of, no more"
        }
        // "Of gaining knowledge are called testimony" (from "Social means of …"): no phrase's start.
        if card.origin != .glossary, let first = backWords.first.map(WordTokenizer.fold), Self.phraseBreakers.contains(first) {
            return "the definition opens with “\(first)”: half a phrase"
        }
        // "The velocity of the centre of mass times delta t. And the point P …": two statements.
        if card.origin != .glossary, card.origin != .keyTerm, SentenceSplitter.split(back).count > 1 {
            return "the definition runs into a second sentence"
        }
        // "A monist response is the mind is the brain": the definiens is itself a statement.
        if card.origin == .definition, let copula = backWords.prefix(4).map(WordTokenizer.fold).firstIndex(where: { ["is", "are"].contains($0) }),
           copula > 0, !["that", "which", "who", "whom", "whose"].contains(WordTokenizer.fold(backWords[copula - 1])) {
            return "the definition “\(Self.short(back))” is a statement, not a phrase"
        }
        if let end = back.last, ",;:(-–".contains(end) { return "the definition ends in “\(end)”: it is cut off" }
        if back.filter({ $0 == "(" }).count != back.filter({ $0 == ")" }).count { return "the definition's brackets do not close" }
        // "the most subtle of his laws" judges X; it does not say what X is. (A word's meaning in
        // quotation marks, "What does the term utility mean? → “useful” or “a useful thing.”",
        // is the word's gloss, not a judgement of it.)
        let quotedGloss = card.front.hasSuffix(" mean?") && back.first.map { "“\"‘'".contains($0) } == true
        if !quotedGloss, back.range(of: #"^(?:(?:the|a|an)\s+)?(?:most|best|worst|simplest|easiest|hardest|particularly|very|really|quite|hotly|lot|bit|little)\b"#,
                      options: [.regularExpression, .caseInsensitive]) != nil
            || (!quotedGloss && card.origin != .glossary && DefiningSentence.isJudgement(backWords.map(WordTokenizer.fold))) {
            return "“\(Self.short(back))” judges “\(subject)”, it does not define it"
        }
        // "X is an example of Y" says what X illustrates, not what X is.
        if back.range(of: #"^(?:(?:a|an|the|one)\s+)?(?:\w+\s+)?(?:example|instance|illustration)s?\b|\b(?:is|are) (?:an|one|another) (?:example|instance)"#,
                      options: [.regularExpression, .caseInsensitive]) != nil {
            return "“\(Self.short(back))” names an example, not a definition"
        }
        // "the sum of these two forces": a definiens pointing into its passage defines nothing.
        if card.origin != .glossary, passage?.kind != .glossary,
           let pointer = backWords.prefix(12).map(WordTokenizer.fold).first(where: { ["these", "this", "those", "our", "here", "above", "below"].contains($0) }) {
            return "the definition points into its passage (“\(pointer)”)"
        }
        // A sentence about the term that names it is no meaning of it ("… the notion of anatman as …").
        if card.noteType != .cloze, card.origin == .glossary || card.origin == .keyTerm, passage?.kind != .glossary,
           OfflineCardGenerator.contains(PorterStemmer.foldedWords(back), PorterStemmer.foldedWords(subject)),
           !DefiningSentence.isDefiningClause(back, term: subject) {
            return "“\(Self.short(back))” is a sentence about “\(subject)”, not its meaning"
        }
        // A module's "Key Terms" list pairs a term with a sentence of the text that uses it
        // ("A deontologist like Kant would examine …"): a meaning only where it defines or
        // characterises the term and stands alone. (A meaning that does not name the term is a
        // glossary's own.)
        if card.noteType != .cloze, card.origin == .glossary || card.origin == .keyTerm, let passage, passage.kind == .glossary,
           passage.sectionPath.last != "Glossary" {
            let words = PorterStemmer.foldedWords(card.back), phrase = PorterStemmer.foldedWords(subject)
            if OfflineCardGenerator.contains(words, phrase) {
                if let dependence = StandaloneSentence.dependence(card.back) { return "the Key Terms sentence: \(dependence)" }
                guard Self.keyTermsSentenceSaysWhatItIs(card.back, term: subject) else {
                    return "“\(Self.short(card.back))” uses “\(subject)” without saying what it is"
                }
            }
        }
        // "A goal-oriented response to certain situations: they prepare us to …": after its colon the
        // definiens goes on to say something else about the term.
        if card.origin != .glossary, back.range(of: #": (?:they|it|this|these|he|she|we|you)\b"#, options: [.regularExpression, .caseInsensitive]) != nil {
            return "the definition runs on after its colon into a second statement"
        }
        // ", and Aristotle is …": a second statement in the answer.
        if back.range(of: #"[,;] (?:and|but|while|whereas) [^,;]{1,60}? (?:is|are|was|were) "#, options: .regularExpression) != nil
            || (card.origin == .definition && back.range(of: #"\w and (?:is|are|was|were|has|have|had|can|does|\w+(?:izes|ises|ates))\b|, so (?:a|an|the|it|this|that|they)\b"#, options: .regularExpression) != nil) {
            return "the definition holds a second statement"
        }
        // A mined key term's meaning is a sentence that defines it, not any sentence naming it.
        if card.origin == .keyTerm || card.origin == .glossary, let passage, passage.kind != .glossary {
            let definedMatches = KeyTermExtraction.definedTerm(in: card.back).map { Self.termKey($0) == Self.termKey(subject) } ?? false
            guard DefiningSentence.isDefiningClause(card.back, term: subject) || (definedMatches && DefiningSentence.isAppositiveDefinition(card.back)) else {
                return "“\(Self.short(card.back))” does not define “\(subject)”"
            }
        }
        // "A change in the sequence", "The tool behind related-rates problems": a hypernym with one
        // short modifier says what kind of thing X is, not which one; a learner cannot tell X from
        // its neighbours by it. (A glossary's own meaning is the source's word.)
        // ("The tool behind related-rates problems": a hyphenated compound is one word of the phrase.)
        if card.noteType != .cloze, card.origin != .glossary, passage?.kind != .glossary, let vague = Self.vagueDefiniens(Self.phraseWords(back)) {
            return "“\(Self.short(back))” names only a kind of thing (“\(vague)”), not what “\(subject)” is"
        }
        // "A result of atoms in motion", "The source of all": what X stems from or belongs to.
        if card.origin != .glossary, passage?.kind != .glossary, let relation = Self.relationalDefiniens(backWords) {
            return "“\(Self.short(back))” says what “\(subject)” is \(relation) of, not what it is"
        }
        return nil
    }

    /// Heads of a definiens that name only a kind of thing ("a change", "the tool", "a way").
    static let vagueHeads: Set<String> = [
        "change", "tool", "thing", "way", "part", "kind", "type", "sort", "form", "piece", "aspect", "element", "feature",
        "means", "matter", "method", "process", "step", "property", "result", "key", "basis", "heart", "core", "idea",
        "concept", "term", "word", "area", "field", "branch", "topic", "subject", "issue", "factor",
    ]

    /// The vague head of a definiens that is a hypernym with at most one short modifier and no
    /// clause ("a change in the sequence", "the tool behind related-rates problems"), or nil.
    static func vagueDefiniens(_ words: [String]) -> String? {
        var folded = words.map(WordTokenizer.fold)
        let definite = folded.first == "the"
        if let first = folded.first, ["a", "an", "the", "one"].contains(first) { folded.removeFirst() }
        guard !folded.isEmpty, folded.count <= 6 else { return nil }
        let clause: Set<String> = ["that", "which", "who", "whom", "whose", "where", "when", "by", "used", "whereby"]
        // "The main pigment", "The primary focus of traditional epistemology": a rank among the
        // passage's things, not what X is.
        if definite, folded.count >= 2, folded.count <= 5, Self.rankingWords.contains(folded[0]), !folded.contains(where: clause.contains) {
            return folded[0] + " " + folded[1]
        }
        // The head, after at most one adjective ("a small change").
        for index in 0..<min(2, folded.count) where vagueHeads.contains(folded[index]) {
            let rest = folded[(index + 1)...]
            guard rest.count <= 3, !rest.contains(where: clause.contains) else { return nil }
            return folded[index]
        }
        return nil
    }

    /// Words of `text` with a hyphenated compound as one word: "the tool behind related-rates
    /// problems" is a head with a three-word modifier, not four.
    static func phraseWords(_ text: String) -> [String] {
        WordTokenizer.words(text.replacingOccurrences(of: #"(?<=\w)[-‐](?=\w)"#, with: "", options: .regularExpression))
    }

    /// Whether a vague definiens ends in "the" and one noun: "a change in the sequence" (which one?).
    static func endsInBareDefinite(_ words: [String]) -> Bool {
        let folded = words.map(WordTokenizer.fold)
        return folded.count >= 3 && folded.count <= 5 && folded[folded.count - 2] == "the"
    }

    /// Nouns that say a one-word name is a person in an example ("Mary is a scientist …").
    static let examplePersons: Set<String> = [
        "scientist", "student", "man", "woman", "boy", "girl", "child", "person", "teacher", "doctor", "farmer", "soldier",
        "patient", "worker", "professor", "driver", "mother", "father", "friend", "neighbor", "neighbour", "lawyer", "nurse",
        "engineer", "neuroscientist", "researcher", "employee", "manager", "customer", "citizen", "traveler", "traveller",
    ]

    /// Makers an example sets to work ("the sculptor", "the carpenter").
    static let exampleMakers: Set<String> = [
        "sculptor", "painter", "carpenter", "builder", "potter", "craftsman", "artisan", "artist", "architect", "shoemaker",
        "baker", "smith", "blacksmith", "weaver", "musician",
    ]

    /// The person noun when `term` is one capitalised name and `definiens` opens by saying it is a
    /// person ("a scientist", "a young student"), or nil.
    static func personOfExample(_ term: String, definiens: String) -> String? {
        let name = term.trimmingCharacters(in: .whitespaces)
        guard !name.contains(" "), name.first?.isUppercase == true, name.dropFirst().allSatisfy(\.isLowercase) else { return nil }
        let words = WordTokenizer.words(definiens).map(WordTokenizer.fold)
        guard let first = words.first, ["a", "an"].contains(first) else { return nil }
        return words.dropFirst().prefix(2).first(where: examplePersons.contains)
    }

    /// Nouns that describe a person before the name: "British philosopher Bertrand Russell".
    static let describingNouns: Set<String> = [
        "philosopher", "mathematician", "physicist", "scientist", "writer", "poet", "economist", "theologian", "sociologist",
        "psychologist", "historian", "emperor", "king", "queen", "president", "professor", "scholar", "thinker", "astronomer",
        "chemist", "biologist", "novelist", "playwright", "statesman", "pope", "monk", "priest", "linguist", "logician",
    ]

    /// The descriptor of a deletion that holds a person's descriptor and name ("British
    /// philosopher" of "British philosopher Bertrand Russell"), or nil.
    static func descriptorBeforeName(_ deletion: String) -> String? {
        let words = deletion.split(separator: " ").map(String.init)
        guard words.count >= 3,
              let name = words.indices.dropFirst().first(where: { words[$0].first?.isUppercase == true && words[$0 - 1].first?.isLowercase == true }),
              words[..<name].contains(where: { describingNouns.contains($0.lowercased()) }) else { return nil }
        return words[..<name].joined(separator: " ")
    }

    /// Verbs a term does not hold: a deletion with one ran into its clause ("Neo-Confucianism became prominent").
    static let clauseVerbs: Set<String> = ["is", "are", "was", "were", "became", "becomes", "has", "had", "remained", "emerged"]
    static let copulas: Set<String> = ["is", "are", "was", "were", "be", "been", "being", "became", "becomes", "become", "s"]
    static let subjectPronouns: Set<String> = ["i", "we", "you", "they", "he", "she", "it", "this", "that", "there"]

    /// Adjectives that rank a thing among others: "the main …", "the primary …".
    static let rankingWords: Set<String> = [
        "main", "primary", "principal", "key", "chief", "major", "central", "dominant", "leading", "largest", "biggest",
        "smallest", "best", "usual", "standard",
    ]

    /// Heads that relate a thing to another rather than say what it is: "a result of", "the source
    /// of", "one of", "another type of". A sentence "X is a result of Y" fits any X that Y causes.
    static let relationalHeads: Set<String> = [
        "result", "results", "consequence", "consequences", "effect", "effects", "product", "products", "outcome", "outcomes",
        "cause", "causes", "source", "sources", "part", "parts", "member", "members", "one", "aspect", "aspects", "feature",
        "features", "component", "components", "symptom", "symptoms", "sign", "signs", "kind", "type", "form", "sort", "variety",
        "branch", "subset",
    ]

    /// What a definiens relates its subject to ("a result", "another type") when it opens with a
    /// relational head and "of"/"among" and has no clause saying which one ("one in which …",
    /// "a type of cell division that …" are definitions), or nil.
    static func relationalDefiniens(_ words: [String]) -> String? {
        let folded = words.map(WordTokenizer.fold)
        var index = 0
        let determiners: Set<String> = ["a", "an", "the", "one", "another", "just", "also", "often", "merely", "simply", "only", "mainly", "largely", "partly"]
        while index < folded.count, determiners.contains(folded[index]), !(folded[index] == "one" && index + 1 < folded.count && ["of", "among"].contains(folded[index + 1])) {
            index += 1
        }
        // At most one adjective before the head ("a direct result of").
        for head in [index, index + 1] where head + 1 < folded.count && relationalHeads.contains(folded[head]) && ["of", "among"].contains(folded[head + 1]) {
            // "A type of cell division that produces …", "a part of a clock that moves the hands": the
            // clause says which one. (A result, cause or source stays a relation whatever follows.)
            let hypernym: Set<String> = ["kind", "type", "form", "sort", "variety", "branch", "subset", "part", "parts", "component",
                                         "components", "member", "members", "aspect", "aspects", "feature", "features"]
            if hypernym.contains(folded[head]), folded[(head + 2)...].contains(where: { ["that", "which", "who", "whose", "where", "in", "with", "characterized", "characterised", "marked"].contains($0) }) {
                return nil
            }
            return folded[...head].joined(separator: " ")
        }
        return nil
    }

    /// Whether `phrase` is one of the topic's key terms or the curriculum's glossary terms.
    func isTerm(_ phrase: String, of topic: Topic) -> Bool {
        let key = Self.termKey(phrase)
        return glossary[key] != nil || topic.keyTerms.contains { Self.termKey($0.term) == key }
    }

    /// Whether the source itself names `phrase` as a term: its glossary, or a term it emphasises
    /// (a term mined from the very sentence a card comes from proves nothing about that sentence).
    func isNamedTerm(_ phrase: String, of topic: Topic) -> Bool {
        let key = Self.termKey(phrase)
        return glossary[key] != nil || topic.keyTerms.contains { Self.termKey($0.term) == key && ($0.basis == .glossary || $0.basis == .emphasised) }
    }

    /// Nouns in -ing that are no activity ("String theory", "Building codes").
    static let ingNouns: Set<String> = [
        "string", "spring", "sibling", "building", "ceiling", "evening", "morning", "pudding", "beijing", "viking", "offspring",
        "clothing", "herring", "duckling", "sterling", "nothing", "something", "anything", "everything", "wedding", "painting",
    ]

    /// Words no definiens opens with: it would be the end of a phrase cut in two.
    static let phraseBreakers: Set<String> = ["of", "to", "for", "by", "with", "from", "at", "on", "into", "and", "or", "but", "than"]

    /// Words a complete phrase does not end in: articles, prepositions, conjunctions, copulas.
    static let danglingWords: Set<String> = [
        "a", "an", "the", "of", "to", "in", "for", "with", "by", "on", "at", "from", "into", "onto", "than", "as", "and",
        "or", "but", "nor", "because", "although", "while", "whereas", "which", "that", "who", "whose", "is", "are",
        "was", "were", "be", "such", "very", "its", "their", "our", "his", "her", "my", "your", "if", "when", "whether", "only",
    ]

    // MARK: Cloze target

    private func clozeFailure(_ card: Flashcard, topic: Topic) -> String? {
        let deletions = ClozeText.deletions(in: card.front)
        guard let deletion = deletions.first, !deletion.isEmpty else { return "the cloze deletes nothing" }
        let words = WordTokenizer.words(deletion)
        let folded = words.map(WordTokenizer.fold)
        guard let first = folded.first, let last = folded.last else { return "the cloze deletes no word" }
        if folded.allSatisfy(CardGrounding.functionWords.contains) { return "“\(deletion)” is a function word" }
        if CardGrounding.functionWords.contains(first) || CardGrounding.functionWords.contains(last) || Self.discourseWords.contains(first) {
            return "“\(deletion)” is half a phrase"
        }
        // "{{Early Chinese writings often}} refer to …": a term that ran into the adverb after it.
        if words.count > 1, DefiningSentence.adverbs.contains(last) { return "“\(deletion)” runs into “\(words.last!)”: half a phrase" }
        // "{{Neo-Confucianism became prominent}}": a term that ran into its clause's verb.
        if words.count > 1, let verb = folded.dropFirst().first(where: Self.clauseVerbs.contains) {
            return "“\(deletion)” runs into the verb “\(verb)”: half a clause"
        }
        // "{{British philosopher Bertrand Russell}}": a descriptor deleted with the name is a hint
        // and a second thing to recall.
        if let descriptor = Self.descriptorBeforeName(deletion) {
            return "“\(deletion)” deletes the descriptor “\(descriptor)” with the name"
        }
        // "Very useful theorem called the {{parallel axis theorem}}.": a fragment with no verb names
        // the term and says nothing about it.
        // (A lecturer's fragment: a written sentence has its verb.)
        if card.source.timeStart != nil || topic.passages.first(where: { $0.id == card.source.passageId })?.kind == .transcript,
           let lead = card.front.range(of: #"^(?:[\w’'-]+ ){1,5}(?=(?:called|known as|termed|named) (?:the |a |an )?\{\{c\d+::[^}]+\}\}[.!]?$)"#, options: .regularExpression),
           !WordTokenizer.words(String(card.front[lead])).contains(where: { Self.copulas.contains($0) || Self.subjectPronouns.contains($0) || $0.hasSuffix("ed") }) {
            return "“\(Self.short(ClozeText.revealed(card.front)))” has no verb: a fragment naming “\(deletion)”, not a statement about it"
        }
        // "The ability and artistic skill of the sculptor was termed the {{efficient cause}}.": what one
        // example's person has, named as if it were what the term is.
        if let naming = card.front.range(of: #"\b(?:called|known as|termed|named) (?:the |a |an )?\{\{c"#, options: .regularExpression) {
            let lead = WordTokenizer.words(String(card.front[..<naming.lowerBound]))
            if let person = zip(lead, lead.dropFirst()).first(where: { $0.0 == "the" && (Self.examplePersons.contains($0.1) || Self.exampleMakers.contains($0.1)) })?.1 {
                return "“the \(person)”: the sentence names what one example's person does or has, not what “\(deletion)” is"
            }
        }
        // "… closely related to another bias known as {{anchoring}}.": the sentence says only that the
        // term is another such thing; any of them fits the blank.
        if let another = card.front.range(of: #"\banother (?:[\w’'-]+ ){1,3}(?=(?:known as|called|termed|named) (?:the |a |an )?\{\{c\d+::[^}]+\}\}[.!]?$)"#, options: .regularExpression) {
            return "“\(card.front[another].trimmingCharacters(in: .whitespaces))” says only what kind of thing “\(deletion)” is: any of them fits the blank"
        }
        if words.count > 6 { return "“\(deletion)” is too long to recall" }
        // "can be {{deductive}}, inductive, or abductive": one item of a list, any of which fits.
        if let close = card.front.range(of: "}}") {
            let after = String(card.front[close.upperBound...])
            let before = card.front[..<(card.front.range(of: "{{c")?.lowerBound ?? card.front.startIndex)]
            if after.range(of: #"^,(?: [\w’'-]+){1,3},? (?:or|and) "#, options: .regularExpression) != nil
                || (before.hasSuffix(", ") && after.range(of: #"^,? (?:or|and) "#, options: .regularExpression) != nil)
                || (before.range(of: #", (?:or|and) $"#, options: .regularExpression) != nil && before.range(of: #"\w+, [\w\s]+, (?:or|and) $"#, options: .regularExpression) != nil) {
                return "“\(deletion)” is one item of a list: any of them fits the blank"
            }
        }
        // "… in {{c1::1559}}, and many states required printers to hold licences": a date whose
        // sentence goes on to a second statement asks two facts (or the date is the aside).
        if deletion.contains(where: \.isNumber),
           let second = ClozeText.revealed(card.front).range(of: #"; |[,;] (?:and|but|while|whereas) (?:[\w’'-]+ ){0,9}(?:\w+ed|was|were|is|are|sold|had|has|made|became|took|began|spread|grew|led)\b"#,
                                                              options: .regularExpression) {
            return "the sentence holds a second statement beside “\(deletion)” (“\(Self.short(String(ClozeText.revealed(card.front)[second]), words: 6))”)"
        }
        if deletion.contains(where: \.isNumber) || deletion.contains(where: { "=+^√∑∫πΔ".contains($0) }) { return nil }
        let key = Self.termKey(deletion)
        // "A {{mutation}} is a change in the sequence.": a kind of thing and a place in its passage
        // ("the sequence": which one?) leave the blank without one answer. ("The {{chain rule}} is the
        // tool behind related-rates problems" names a class of problems and stays.)
        if card.origin == .keyTerm || card.origin == .definition, let predicate = Self.predicate(after: card.front),
           let vague = Self.vagueDefiniens(Self.phraseWords(predicate)), Self.endsInBareDefinite(Self.phraseWords(predicate)) {
            return "“\(Self.short(predicate))” names only a kind of thing (“\(vague)”) of something its passage names: many terms fit the blank"
        }
        // "{{Mary}} is a scientist and …": a person of an example, not a term.
        if card.origin == .keyTerm || card.origin == .definition, glossary[key] == nil, let predicate = Self.predicate(after: card.front),
           let person = Self.personOfExample(deletion, definiens: predicate) {
            return "“\(deletion)” is a person of an example (“\(person)”), not a term"
        }
        if card.origin == .keyTerm || card.origin == .definition, let half = halfOfAPhrase(card, deletion: deletion, topic: topic) { return half }
        // "The {{output}} is a list of …": output of what is left to the passage.
        if card.origin == .keyTerm || card.origin == .definition, words.count == 1, Self.genericHeads.contains(folded[0]) {
            return "“\(deletion)” names nothing out of its passage"
        }
        // A key term's cloze is a sentence about the term: one defining it, or (for a term the
        // glossary names or a sentence defines) one opening with it; "Early Chinese writings
        // often …" with "social" deleted tests the sentence, not the term.
        if card.origin == .keyTerm {
            let revealed = ClozeText.revealed(card.front)
            let term = topic.keyTerms.first { Self.termKey($0.term) == key }
            let named = glossary[key] != nil || term.map { $0.basis != .heading } == true
            if card.source.timeStart != nil || topic.passages.first(where: { $0.id == card.source.passageId })?.kind == .transcript,
               SymbolLabel.isLabel(deletion) {
                return "“\(deletion)” is a label of the lecture, not a term"
            }
            guard term != nil || glossary[key] != nil else { return "“\(deletion)” is not a key term of the topic" }
            // "Partiality of care is the basis of …, but it is also the source of …": two facts about
            // the term. A clause about another subject ("…, linguist, and semiotician Ferdinand de
            // Saussure was …", "…, and from Purusha’s body the castes are created") is the sentence's
            // context, not a second thing the card asks.
            if revealed.range(of: #"[,;] (?:and|but|while|whereas) (?:(?:so )?(?:it|they|he|she|this|these|its|their|his|her)\b|also\b)[^,;]{0,60}? (?:is|are|was|were) "#, options: .regularExpression) != nil {
                return "the sentence holds a second statement"
            }
            // "A gene editing therapy is …, whereas a gene editing enhancement is …": two definitions, the
            // second a hint for the first.
            if revealed.range(of: #"[,;][”"’]? whereas [^;.]{1,100}? (?:is|are|was|were) "#, options: .regularExpression) != nil {
                return "the sentence contrasts “\(deletion)” with a second thing it defines: two facts"
            }
            // "Although much of his reign fell under a period known as the {{Pax Romana}}, …, the end of his
            // reign …": the term stands in the concession; the sentence states something else.
            if let open = card.front.range(of: #"^(?:Although|Though|Even though|Whereas|While) "#, options: .regularExpression),
               let comma = card.front.range(of: ", ", range: open.upperBound..<card.front.endIndex),
               let cloze = card.front.range(of: "{{c"), cloze.lowerBound < comma.lowerBound {
                return "“\(deletion)” stands in the sentence's “\(card.front[open].trimmingCharacters(in: .whitespaces)) …” clause: the sentence states something else"
            }
            if OfflineCardGenerator.defines(revealed, term: deletion)
                || (named && StandaloneSentence.characterises(PorterStemmer.foldedWords(revealed), PorterStemmer.foldedWords(deletion))) {
                // "{{Confirmation bias}} is a result of the brain's limited ability …": any bias fits the blank.
                if let relation = Self.predicate(after: card.front).flatMap({ Self.relationalDefiniens(WordTokenizer.words($0)) }) {
                    return "the sentence says what “\(deletion)” is \(relation) of: any term so related fits the blank"
                }
                return nil
            }
            return "the sentence does not define “\(deletion)” nor say what it holds or does: it is not about the term"
        }
        if glossary[key] != nil || topic.keyTerms.contains(where: { Self.termKey($0.term) == key }) { return nil }
        // The subject of a definition sentence is the term it defines.
        if card.origin == .definition, DefiningSentence.isDefiningClause(ClozeText.revealed(card.front), term: deletion) { return nil }
        // A name: capitalised where it stands mid-sentence.
        if let range = card.front.range(of: "{{c"), range.lowerBound != card.front.startIndex,
           words.allSatisfy({ $0.first?.isUppercase == true }) { return nil }
        return "“\(deletion)” is not a key term, name, number or formula of the topic"
    }

    /// What a cloze sentence says its deleted subject is: the words after "{{…}} is" (or "are",
    /// "was", "were"), or nil when the deletion is not the subject of a copula.
    static func predicate(after front: String) -> String? {
        guard let close = front.range(of: "}}") else { return nil }
        let after = String(front[close.upperBound...])
        guard let copula = after.range(of: #"^(?:[’']s)? (?:is|are|was|were) "#, options: .regularExpression) else { return nil }
        return String(after[copula.upperBound...])
    }

    /// Why the deletion is half of a phrase the sentence names: one of two coordinated words ("A
    /// proposition or {{statement}}", "{{Compassion}} and empathy"), part of a longer term ("The
    /// {{sage}} tradition", "The {{ethics}} of care"), or an adjective without its noun
    /// ("{{Deductive}} inferences"); nil when it is whole.
    private func halfOfAPhrase(_ card: Flashcard, deletion: String, topic: Topic) -> String? {
        guard let open = card.front.range(of: "{{c"), let close = card.front.range(of: "}}", range: open.upperBound..<card.front.endIndex) else { return nil }
        let before = String(card.front[..<open.lowerBound]), after = String(card.front[close.upperBound...])
        if before.range(of: #"\w (?:or|and) $"#, options: .regularExpression) != nil || after.range(of: #"^ (?:or|and) \w"#, options: .regularExpression) != nil {
            return "“\(deletion)” is one of two words joined by “and”/“or”: half a phrase, the other a hint"
        }
        let previous = Array(WordTokenizer.words(before).suffix(1)), next = Array(WordTokenizer.words(after).prefix(3))
        let deleted = WordTokenizer.words(deletion)
        // ("The {{ethics}} of care": the longer term runs through "of".)
        let phrases: [[String]] = [previous + deleted] + (1...3).map { deleted + Array(next.prefix($0)) }
        for phrase in phrases where phrase.count > deleted.count {
            let longer = phrase.joined(separator: " ")
            if isTerm(longer, of: topic), Self.termKey(longer) != Self.termKey(deletion) {
                return "“\(deletion)” is part of the term “\(longer)”"
            }
        }
        // "{{Deductive}} inferences are …": the adjective without the noun it qualifies.
        if deleted.count == 1, let word = deleted.first, let following = next.first, after.hasPrefix(" "),
           after.dropFirst().first?.isLowercase == true, !CardGrounding.functionWords.contains(following), !following.hasSuffix("ly"),
           !StandaloneSentence.characterisingVerbs.contains(following), !KeyTermExtraction.verbs.contains(following),
           ["ive", "ic", "ical", "ous", "ful", "able", "ible", "al"].contains(where: { word.hasSuffix($0) }) {
            return "“\(deletion)” qualifies “\(following)”: half a phrase"
        }
        return nil
    }

    // MARK: Answerability

    /// A name in `sentence` sharing with the one-word `answer` all but its last two letters at least
    /// (six letters or more): the school named after the person the sentence names, "Pythagoras"
    /// for "Pythagoreans", "Epicurus" for "Epicureanism". (A common word, "foundational" before
    /// "Foundationalism", is a hint, not the answer.)
    static func wordGivingAway(_ answer: String, in sentence: String) -> String? {
        let answerWords = WordTokenizer.words(answer).map(WordTokenizer.fold)
        guard answerWords.count == 1, let asked = answerWords.first, asked.count >= 7 else { return nil }
        for (index, word) in sentence.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).enumerated()
        where index > 0 && word.first?.isUppercase == true {
            let folded = WordTokenizer.fold(word.lowercased())
            guard folded.count >= 6, folded != asked else { continue }
            let shared = zip(asked, folded).prefix { $0.0 == $0.1 }.count
            if shared >= max(6, min(asked.count, folded.count) - 2) { return String(word) }
        }
        return nil
    }

    /// Objectives that ask for what no passage states in so many words.
    static let unanswerableObjectives = ["summarise", "summarize", "review", "discuss", "reflect", "practice", "practise", "work", "solve", "complete", "read", "watch", "apply", "use",
                                         // Reasoning a learner does, which no sentence of the passage does for them.
                                         "classify", "evaluate", "compare", "contrast", "identify", "outline", "analyze", "analyse", "assess",
                                         "examine", "trace", "connect", "relate", "consider", "differentiate"]

    private func answerFailure(_ card: Flashcard, topic: Topic) -> String? {
        let answer = card.answer.trimmingCharacters(in: .whitespacesAndNewlines)
        // A lecture's "we" is its speaker's; a book's is its author's generic person.
        let written = card.source.timeStart == nil && topic.passages.first { $0.id == card.source.passageId }.map { $0.kind != .transcript } == true
        guard !answer.isEmpty else { return "the card has no answer" }
        let answerStems = Set(CardGrounding.contentStems(answer))
        if card.noteType == .cloze {
            // The deletion must not stand elsewhere in the sentence.
            let rest = card.front.replacingOccurrences(of: #"\{\{c\d+::.*?\}\}"#, with: " ", options: .regularExpression)
            let restStems = Set(CardGrounding.contentStems(rest))
            // (A possessive's "s" is no word of its own: "Zeno proposed paradoxes, known as {{Zeno’s paradoxes}}".)
            let asked = answerStems.subtracting(["s"])
            if !asked.isEmpty, asked.isSubset(of: restStems) { return "the sentence gives “\(answer)” away" }
            // "Pythagoras … and his followers, known as the {{c1::Pythagoreans}}": a name in the sentence
            // that the one-word answer grows from gives it away as surely as the word itself.
            if let word = Self.wordGivingAway(answer, in: rest) { return "the sentence gives “\(answer)” away (“\(word)”)" }
            // "He taught that …", "These numerical representations …", "… takes this worry seriously":
            // out of its paragraph the sentence is ambiguous; two sentences are two facts.
            if let dependence = StandaloneSentence.dependence(ClozeText.revealed(card.front)) { return dependence }
            if card.front.range(of: #"^[-•*–] "#, options: .regularExpression) != nil { return "the sentence opens with a list mark" }
            // The back's meaning too: "So this special case is often called …" leans on its passage.
            if let colon = card.back.range(of: ": "), let pointing = StandaloneSentence.pointing(String(card.back[colon.upperBound...])) {
                return "the back: \(pointing)"
            }
            if let spoken = Self.spokenTo(ClozeText.revealed(card.front), written: written) { return spoken }
            // "This section will first look at X", "When the former happens, …": about the text around it.
            if let pointer = card.front.range(of: #"\b(?:(?:this|these|that|the next|the following|the previous) (?:section|chapter|module|unit|figure|example|mistake|case|lesson|video)s?|the former|the latter)\b"#,
                                               options: [.regularExpression, .caseInsensitive]) {
                return "“\(card.front[pointer])”: the sentence is about the text around it"
            }
            return nil
        }
        let frontStems = Set(CardGrounding.contentStems(card.front))
        if !answerStems.isEmpty, answerStems.isSubset(of: frontStems) { return "the question gives the answer away" }
        if card.noteType == .basicReversed, !frontStems.isEmpty, frontStems.isSubset(of: answerStems) {
            return "the meaning names the term: the reverse card gives it away"
        }
        // (A theorem's "we" is the mathematician's, not a speaker's aside.)
        // (A formula's "I" is the moment of inertia.)
        if card.origin != .glossary, card.origin != .environment, card.origin != .formula, card.origin != .example, let spoken = Self.spokenTo(card.back, written: written) { return spoken }
        if card.origin == .objective {
            let first = WordTokenizer.words(card.front).first.map(WordTokenizer.fold) ?? ""
            if Self.unanswerableObjectives.contains(first) || card.front.lowercased().contains("main ideas") {
                return "“\(Self.short(card.front))” asks for work, not a fact a passage states"
            }
            let asked = frontStems.subtracting(OfflineCardGenerator.objectiveStems)
            let covered = asked.intersection(answerStems)
            if covered.count < asked.count {
                return "the passage answers \(covered.count) of the objective's \(asked.count) words"
            }
            // "Describe standpoint epistemology." → "Furthermore, …", "Describe secular views of the
            // self." → "One of the first and most influential scholars …": the answer stands alone and
            // its first sentence defines what the objective names.
            let sentences = SentenceSplitter.split(card.back).map(\.text)
            if let pointing = sentences.lazy.compactMap(StandaloneSentence.pointing).first { return "the answer leans on its passage: \(pointing)" }
            let opening = sentences.first ?? ""
            let defined = KeyTermExtraction.definedTerm(in: opening) ?? OfflineCardGenerator.definition(in: opening)?.subject
            guard let defined, !Set(CardGrounding.contentStems(defined)).isDisjoint(with: asked) else {
                return "the answer's first sentence does not define what “\(Self.short(card.front))” asks about"
            }
            // "What is X?" (from "Define X") is answered by a sentence defining X.
            for prefix in ["What is ", "What are "] where card.front.hasPrefix(prefix) {
                let term = String(card.front.dropFirst(prefix.count)).trimmingCharacters(in: CharacterSet(charactersIn: "?. "))
                // Its first sentence: an answer that opens elsewhere is not focused on X.
                let first = SentenceSplitter.split(card.back).first?.text ?? ""
                if !DefiningSentence.isDefiningClause(first, term: term) && !DefiningSentence.isAppositiveDefinition(first) {
                    return "the answer does not open with a sentence defining “\(term)”"
                }
            }
            // "Describe beamer theme and metropolis.", "What is membrane and Osmosis?": two terms
            // joined into one question (an objective made of two slide titles or headings).
            if card.front.range(of: #"^\w+ (?:[\w’'-]+ ){0,2}[\w’'-]+ and (?:[\w’'-]+ ){0,2}[\w’'-]+[.?]$"#, options: .regularExpression) != nil {
                return "“\(Self.short(card.front))” joins two things into one question"
            }
            // "… Enable the theme by loading": the answer stops mid-sentence (code or a slide's furniture followed).
            if let end = card.back.trimmingCharacters(in: .whitespacesAndNewlines).last, !".!?…”\"’)]".contains(end) {
                return "the answer stops mid-sentence"
            }
        }
        return nil
    }

    /// Why `text` shows mathematics a PDF's text layer lost, or nil. TeX's extension font puts ∫
    /// at "Z" and ∑ at "P", so a text layer without its font map reads "Z K(s)dA = …" or "P n i=1
    /// aᵢ"; superscripts set down on the line read "a2 + b2 = c2": the formula is unreadable on a card.
    static func lostGlyphs(_ text: String) -> String? {
        if let integral = text.range(of: #"(?:^|[\s(=])Z\s+[^\s=,:;][^=,:;]{0,30}?[\w)]\s?d[A-Za-zθϕφστ]\b"#, options: .regularExpression) {
            return "“\(text[integral].trimmingCharacters(in: .whitespaces))”: the formula lost its integral sign in the PDF's text"
        }
        if let sum = text.range(of: #"(?:^|[\s(=])[PQ]\s+(?:[\w∞]+\s+)?[a-z]\s?=\s?[0-9a-z]\b"#, options: .regularExpression) {
            return "“\(text[sum].trimmingCharacters(in: .whitespaces))”: the formula lost its sum or product sign in the PDF's text"
        }
        // "κ(t) := kγ 00 (t)k": the primes of γ''(t) read as zeros.
        if let prime = text.range(of: #"(?<=\S) 0{1,2} ?\([a-z]\)"#, options: .regularExpression) {
            return "“\(text[prime].trimmingCharacters(in: .whitespaces))”: the formula lost its primes in the PDF's text"
        }
        // "a2 + b2 = c2": the exponents set down on the line.
        if let power = text.range(of: #"(?<![\w^])[a-zA-Z][2-9] ?[+−-] ?[a-zA-Z][2-9](?![\w(])"#, options: .regularExpression) {
            return "“\(text[power])”: the formula lost its exponents in the PDF's text"
        }
        return nil
    }

    /// Why `text` holds a worked problem's particulars, or nil: an indexed object ("the jth
    /// particle"), one of the problem's bodies ("each block", "the cart"), or a symbol the lecture
    /// gave one of them ("the object F", "the point P").
    static func particular(_ text: String) -> String? {
        let patterns = [
            #"\b(?:the |each |every |a )?[ijkmn]th\b(?: \w+)?"#,
            // ("the wheel", "the rope" are as often any wheel or rope: only a problem's typical bodies count with "the".)
            #"\b(?:each|both|either) (?:blocks?|carts?|balls?|pucks?|cars?|bicyclists?|box(?:es)?|sleds?|skaters?|rods?|dis[ck]s?|wheels?|pulleys?|ropes?|ladders?|planks?|bullets?|trains?|objects?|particles?)\b"#,
            #"\b(?:the|this|that|our|two) (?:blocks?|carts?|pucks?|sleds?|bicyclists?|skaters?)\b"#,
            #"\b(?:the|a|an) (?:object|particle|point|body|block|ball|car|cart|spring|charge|rod|disk|wheel|mass) [A-HJ-Z]\b"#,
            // "the integral … of fg.ds": the board's dotted shorthand ("e.g." is no such thing).
            #"\b[a-z]{2,3}\.[a-z]{2,3}\b"#,
        ]
        for (index, pattern) in patterns.enumerated() {
            // (The label is a capital letter as written: "the mass of" holds none.)
            if let range = text.range(of: pattern, options: index >= 3 ? [.regularExpression] : [.regularExpression, .caseInsensitive]) {
                return "“\(text[range])”: a worked problem's own object or label, not a statement that holds out of it"
            }
        }
        return nil
    }

    /// Why the card's text cannot be read out of its passage, or nil: a formula that lost its big
    /// operator, a worked problem's particulars.
    private func readabilityFailure(_ card: Flashcard) -> String? {
        let text = card.noteType == .cloze ? ClozeText.revealed(card.front) : card.back
        // "Dann gilt: Z K(s)dA = 2πχ(S) S": a formula whose big operator the PDF's text layer lost.
        if let lost = Self.lostGlyphs(text) { return lost }
        // "Definition 78 (zweite Fundamentalform von S in s bzgl)": the sentence splitter took an
        // abbreviation's full stop for the statement's end.
        for part in [card.front, card.back] {
            let trimmed = part.trimmingCharacters(in: .whitespacesAndNewlines)
            if let cut = trimmed.range(of: #"\b(?:bzgl|bzw|vgl|ggf|evtl|sog|bspw|insb|resp|cf|vs|i\.e|e\.g|z\. ?B|d\. ?h)\.?\)?$"#, options: .regularExpression) {
                return "“\(Self.short(trimmed))” stops at the abbreviation “\(trimmed[cut])”: the statement is cut off"
            }
        }
        // "The force on the jth particle …", "the sum of the momentum of each block": a worked
        // problem's own objects and labels, not a statement that holds out of it.
        if ![.glossary, .environment, .formula, .example].contains(card.origin), let particular = Self.particular(text) { return particular }
        // "What is the final kinetic energy? → …": the quantity at one moment of a worked problem,
        // whose value is that problem's, not a term's meaning.
        if card.origin == .definition, let state = card.front.range(of: #"^What (?:is|are) the (?:initial|final) [\w-]+(?: [\w-]+)?"#, options: .regularExpression) {
            return "“\(card.front[state].dropFirst(8))”: the state of a worked problem at one moment, not a term with a meaning"
        }
        return nil
    }

    /// Discourse words a sentence opens with when it leans on the one before.
    static let openers: Set<String> = [
        "and", "so", "now", "well", "okay", "ok", "but", "then", "also", "here", "there", "yet", "thus", "hence",
        "therefore", "instead", "rather", "notice", "remember", "recall", "let", "let's", "or", "because", "likewise",
    ]

    /// Words that tie a subject to its passage: "length of something", "internal forces now".
    static let contextWords = ContentWords.contextWords
    static let ordinals: Set<String> = ["first", "second", "third", "fourth", "last", "next", "other", "final"]
    static let genericHeads: Set<String> = [
        "term", "one", "thing", "part", "case", "step", "way", "point", "example", "result", "answer", "problem", "question",
        "method", "figure", "picture", "diagram", "slide", "graph", "output", "input", "equation", "vector", "system", "idea",
        // "The {{text}} is a collection of …": the writing its passage names, not a term.
        "text", "texts", "book", "passage", "chapter", "article", "document", "story", "author",
    ]

    /// "So what I'll do is …", "let's call this …": a speaker talking to an audience, not a
    /// statement a learner can recall out of the lecture. In `written` text (a book, notes, a
    /// page: no transcript) "we", "us", "our" and "your" are the author's generic person ("habits
    /// that help us to decide", "our tendency to rely on …"); there only an "I", a "let's" or a
    /// "we" that steers the reader ("we will now look at …", "as we saw") is a speaker's aside.
    static func spokenTo(_ text: String, written: Bool = false) -> String? {
        // "US pragmatist C. S. Peirce": the country's abbreviation, not the pronoun.
        let words = WordTokenizer.words(text.replacingOccurrences(of: #"\bUS\b"#, with: " ", options: .regularExpression)).map(WordTokenizer.fold)
        let speaker: Set<String> = written
            ? ["i", "i'll", "i'm", "i'd", "i've", "me", "my", "you", "you're", "you'll", "you've", "let's", "we'll", "we're", "we've", "we'd"]
            : ["i", "i'll", "i'm", "i'd", "i've", "me", "my", "you", "your", "you're", "you'll", "let's", "we", "we'll", "we're", "we've", "we'd", "us", "our"]
        if let word = words.first(where: speaker.contains) { return "“\(word)”: a speaker talking to the audience, not a statement to recall" }
        if words.contains("let") && words.contains("us") { return "“let us”: a speaker talking to the audience, not a statement to recall" }
        if written, let steer = zip(words, words.dropFirst()).first(where: { $0.0 == "we" && Self.steeringVerbs.contains($0.1) }) {
            return "“\(steer.0) \(steer.1)”: the text steering its reader, not a statement to recall"
        }
        return nil
    }

    /// A cloze whose deletion stands inside someone's quotation of eight words or more ("Russell
    /// explains that “as soon as definite knowledge … ceases to be called {{c1::philosophy}} …”"):
    /// the words are the quoted author's, not a statement of the source. (A term defined by a
    /// quotation after it, "{{c1::Affirmative action}} refers to taking positive steps “to …”",
    /// is the source's own definition.)
    static func quotedDeletion(_ card: Flashcard) -> String? {
        guard card.noteType == .cloze, card.front.contains("“") || card.front.contains("\"") else { return nil }
        for quotation in card.front.matches(of: /[“"]([^”"]+)[”"]/) where quotation.output.1.contains("{{c") {
            if WordTokenizer.words(ClozeText.revealed(String(quotation.output.1))).count >= 8 {
                return "the deletion stands inside a quotation: someone's words, not the source's statement"
            }
        }
        return nil
    }

    /// Whether a module's Key Terms sentence says what its term is: it does not name the term, or
    /// it defines, characterises or describes a defining part of it, standing alone.
    static func keyTermsSentenceSaysWhatItIs(_ sentence: String, term: String) -> Bool {
        let words = PorterStemmer.foldedWords(sentence), phrase = PorterStemmer.foldedWords(term)
        guard OfflineCardGenerator.contains(words, phrase) else { return true }
        guard StandaloneSentence.dependence(sentence) == nil else { return false }
        return OfflineCardGenerator.defines(sentence, term: term) || StandaloneSentence.characterises(words, phrase)
            || StandaloneSentence.describesPart(words, phrase)
    }

    /// What follows an author's "we" when the text steers its reader rather than states something.
    static let steeringVerbs: Set<String> = [
        "will", "shall", "can", "could", "saw", "see", "now", "turn", "look", "consider", "begin", "discuss", "explore",
        "examine", "return", "learned", "learnt", "have", "had", "noted", "mentioned", "discussed", "encountered", "met",
        "should", "must", "might", "may", "need", "want",
    ]


    // MARK: Duplication

    private func senseFailure(_ card: Flashcard, subject: String?, passage: Passage?) -> String? {
        guard passage?.kind != .glossary else { return nil }
        var term = subject
        if card.noteType == .cloze, card.origin == .definition { term = card.answer }
        // A key term's cloze of a sentence defining it ("A red herring is a smelly smoked fish …").
        // Another sense shares no word with the glossary's meaning; the same sense reworded does.
        if card.noteType == .cloze, card.origin == .keyTerm, OfflineCardGenerator.defines(ClozeText.revealed(card.front), term: card.answer),
           let meaning = glossary[Self.termKey(card.answer)] {
            let own = Set(CardGrounding.contentStems(card.answer))
            let shared = Set(CardGrounding.contentStems(meaning)).subtracting(own).intersection(CardGrounding.contentStems(ClozeText.revealed(card.front)))
            // "{{Historicity}} is the philosophical view that …" against the glossary's "the process of
            // verification of the events …": a doctrine and a thing of another kind sharing a word by chance.
            let revealed = ClozeText.revealed(card.front)
            let otherKind = shared.count <= 1 && Set(CardGrounding.contentStems(meaning)).subtracting(own).count >= 3
                && Self.namesDoctrine(revealed, within: 14, plurals: true) != Self.namesDoctrine(meaning, within: 14, plurals: true)
            if shared.isEmpty || otherKind, !Self.bothDoctrines(meaning, revealed) {
                return "the source's glossary defines “\(card.answer)” as “\(Self.short(meaning))”; this is another sense"
            }
        }
        guard let term, let meaning = glossary[Self.termKey(term)] else { return nil }
        let meaningStems = Set(CardGrounding.contentStems(meaning))
        let stated = Set(CardGrounding.contentStems(card.noteType == .cloze ? ClozeText.revealed(card.front) : card.back))
        // The glossary's meaning restated (most of its words) is the same sense.
        if !meaningStems.isEmpty, Double(meaningStems.intersection(stated).count) >= Double(meaningStems.count) * 0.6 { return nil }
        // "The view that all justified beliefs rest on … basic beliefs" against the glossary's "the
        // belief that all truth is either self-evident or derivable …": one doctrine, reworded.
        if Self.bothDoctrines(meaning, card.noteType == .cloze ? ClozeText.revealed(card.front) : card.back) { return nil }
        return "the source's glossary defines “\(term)” as “\(Self.short(meaning))”; this is another sense"
    }

    /// Words that name a doctrine when "that" follows: "the view that …", "any epistemological
    /// theory that …". Two meanings of one term that both name a doctrine are one sense worded
    /// twice; another sense of the word ("a smelly smoked fish", "a verbal disagreement") names a
    /// thing of another kind.
    static let doctrineWords: Set<String> = [
        "view", "belief", "theory", "position", "doctrine", "thesis", "claim", "idea", "notion", "conviction", "stance",
        "principle", "assumption", "hypothesis",
    ]

    static func namesDoctrine(_ text: String, within: Int = 9, plurals: Bool = false) -> Bool {
        let words = WordTokenizer.words(text).prefix(within).map(WordTokenizer.fold)
        // ("a broad family of views that …", "theories that …")
        func doctrine(_ word: String) -> Bool {
            doctrineWords.contains(word) || (plurals && (doctrineWords.contains(String(word.dropLast())) && word.hasSuffix("s")
                || (word.hasSuffix("ies") && doctrineWords.contains(word.dropLast(3) + "y"))))
        }
        return zip(words, words.dropFirst()).contains { doctrine($0.0) && $0.1 == "that" }
    }

    static func bothDoctrines(_ meaning: String, _ stated: String) -> Bool {
        (namesDoctrine(meaning) && namesDoctrine(stated)) || sameGenus(meaning, stated)
    }

    /// Whether two meanings open with the same qualified kind before what sets the term apart:
    /// "A branch of philosophy that looks at how society …" and "the branch of philosophy that
    /// investigates concepts of justice …" are one sense worded twice ("branch of philosophy").
    /// A kind of one word ("a thing that …") or another kind ("a smoked fish", "a fallacy") is not.
    static func sameGenus(_ meaning: String, _ stated: String) -> Bool {
        func genus(_ text: String) -> [String]? {
            var words = WordTokenizer.words(text).prefix(8).map(WordTokenizer.fold)
            if let first = words.first, ["a", "an", "the"].contains(first) { words.removeFirst() }
            guard let end = words.firstIndex(where: { ["that", "which", "who", "concerned", "whose", "in", "where"].contains($0) }),
                  end >= 3, words[1..<end].contains("of") else { return nil }
            return Array(words[..<end])
        }
        guard let a = genus(meaning), let b = genus(stated) else { return false }
        return a == b
    }

    static func short(_ text: String, words: Int = 10) -> String {
        let all = text.split(separator: " ")
        return all.count <= words ? text : all.prefix(words).joined(separator: " ") + " …"
    }
}
