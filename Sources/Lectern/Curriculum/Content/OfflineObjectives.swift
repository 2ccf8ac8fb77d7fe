import Foundation

/// Learning objectives written offline for a topic whose source states none, from what its text
/// teaches, each with the Bloom verb that fits what the text does: its defined terms ("Define
/// momentum, impulse and force"), the kinds it sorts a subject into ("Identify the three main
/// schools of classical Chinese philosophy"), the contrasts it draws ("Distinguish internalism
/// from externalism"), the arguments it weighs ("Evaluate the arguments for the existence of
/// God"), the rules it states ("Apply the chain rule") and the quantities its definitions give a
/// formula for ("Calculate momentum"). A title or a heading gives one only where the text says
/// the subject or task it names, a file name never: a topic whose text gives none of these gets
/// none (its unit's objectives stand for it, marked inherited, in the UMCF export).
enum OfflineObjectives {
    static let maximum = 5

    /// Section titles that name a part of a textbook's apparatus, not a subject to learn.
    static let apparatus: Set<String> = [
        "learning objectives", "introduction", "summary", "glossary", "key terms", "key concepts", "review questions",
        "further reading", "references", "exercises", "problems", "practice", "critical thinking", "overview",
        "conclusion", "conclusions", "notes", "questions", "answers", "solutions", "think like a philosopher",
        "connections", "write like a philosopher", "read like a philosopher", "abstract", "contents", "index",
    ]

    /// Terms a "Define" objective names at most, and how many such objectives a topic gets.
    static let termsPerDefinition = 3
    static let definitionObjectives = 2

    /// Headings that become an objective at most: the author's sections that name a subject.
    static let headingObjectives = 2

    /// `headings`: the topic's section headings; one that names a subject the text teaches
    /// ("Confucianism", "The Vedic Tradition") is described, one that is apparatus ("Review
    /// Questions"), an instruction ("Prepare to Read"), a question or an activity is not.
    /// `title`: the topic's title; where the text defines the subject it names ("The pipeline
    /// function is the most high level API of …") that subject is described first.
    static func objectives(keyTerms: [KeyTerm], passages: [Passage], headings: [String] = [], title: String? = nil) -> [String] {
        let prose = passages.filter { [.text, .transcript, .list].contains($0.kind) }
        let lowerCaseWords = commonWords(passages.map(\.text) + keyTerms.map(\.definition))
        func phrase(_ text: String) -> String { inSentence(text, commonWords: lowerCaseWords) }
        var statements: [String] = []
        var seen = Set<String>()
        func add(_ statement: String) {
            let key = TermMatcher.stems(statement).dropFirst().joined(separator: " ")
            guard !key.isEmpty, statements.count < maximum, seen.insert(key).inserted else { return }
            statements.append(statement)
        }
        let sentences = prose.flatMap { passage in
            passage.text.split(separator: "\n").flatMap { SentenceSplitter.split(String($0)).map { TextCleanup.collapseWhitespace($0.text.replacingOccurrences(of: "**", with: "")) } }
        }
        let textWords = prose.flatMap { TermMatcher.stems($0.text) }
        // A rule a sentence names ("… which is called the rocket equation") is set up or applied, not defined.
        let titleWords = title.map(TermMatcher.stems) ?? []
        // (A term one of the topic's own section headings names is its subject too: "Elastic Collisions".)
        let headingStems = headings.map(TermMatcher.stems)
        func about(_ term: String) -> Bool {
            weighty(term, textWords: textWords, titleWords: titleWords)
                || headingStems.contains { TermMatcher.count(TermMatcher.stems(withoutState(term)), in: $0) > 0 }
        }
        let candidates = keyTerms.filter { $0.basis != .heading && !$0.term.isEmpty
            && ($0.basis == .glossary || definable($0.term) && !namesATool($0) && !ruleHeads.contains($0.term.split(separator: " ").last?.lowercased() ?? "")) }
        let termStems = Set(candidates.map { TermMatcher.stems($0.term) })
        // The terms it teaches: a side term goes after the longer names are chosen, so that the
        // part of one ("Tomlinson" of "Prandtl-Tomlinson model") does not stand in for it.
        func weighed(_ term: KeyTerm) -> Bool { term.basis == .glossary || about(term.term) }
        let terms = candidates.filter(weighed)
        // A phrase the topic teaches: one holding one of its terms, or words it says at least twice.
        func taught(_ text: String) -> Bool {
            let stems = TermMatcher.stems(text)
            return termStems.contains { TermMatcher.count($0, in: stems) > 0 } || TermMatcher.count(stems, in: textWords) >= 2
        }
        // The subject the title names, where the text says what it is: a lecture's whole subject
        // ("The pipeline function") before the terms it defines on the way ("fill mask pipeline").
        if let title, let subject = definedTitle(title, in: sentences.prefix(titleSentences)) { add("Describe " + phrase(subject)) }
        // Remembering first: the terms the source defines.
        let defined = outerTerms(candidates.filter { $0.basis != .emphasised } + candidates.filter { $0.basis == .emphasised }, \.term).filter(weighed)
        for group in stride(from: 0, to: min(defined.count, termsPerDefinition * definitionObjectives), by: termsPerDefinition) {
            add("Define " + list(defined[group..<min(defined.count, group + termsPerDefinition)].map { phrase(withoutState($0.term)) }))
        }
        // A rule is stated or derived, not defined: "The parallel axis theorem says …" → "State the
        // parallel axis theorem", "… is called the rocket equation, which we've derived from the
        // momentum principle" (or under a title "Derivation of …") → "Derive the rocket equation"; one a text only names is set up or
        // applied ("that will lead us to a differential equation, which is called the rocket equation").
        for term in keyTerms where term.basis != .glossary && term.basis != .heading
            && ruleHeads.contains(term.term.split(separator: " ").last?.lowercased() ?? "") && definable(term.term) {
            let definition = term.definition.lowercased(), name = term.term.lowercased()
            if definition.contains("derived") || title.map({ $0.lowercased().contains("derivation of") && $0.lowercased().contains(name) }) == true {
                add("Derive the " + phrase(term.term))
            } else if definition.hasPrefix(name) || definition.hasPrefix("the " + name) {
                add("State the " + phrase(term.term))
            }
        }
        // A lecture names its terms as it introduces them ("what we call the center of mass").
        let namedTerms = outerTerms(named(in: sentences).filter(taught).filter(definable).filter { name in !defined.contains { TermMatcher.stems($0.term) == TermMatcher.stems(name) } }, \.self).filter(about)
        if !namedTerms.isEmpty { add("Define " + list(namedTerms.prefix(termsPerDefinition).map { phrase(withoutState($0)) })) }
        // Notes define a quantity with its symbol: "Period, \(T\), is defined as …"; when they
        // then relate them ("These three quantities are related by \(f=1/T\)"), relating them is taught.
        let symbolTerms = symbolDefinitions(in: sentences).filter(definable)
        if !symbolTerms.isEmpty {
            let shown = symbolTerms.prefix(termsPerDefinition).map { phrase(StatedObjectives.lowerFirst($0)) }
            add("Define " + list(shown))
            if shown.count >= 2, let formula = sentences.lazy.filter({ $0.contains(" related ") || $0.contains(" relation") }).compactMap(relatingFormula).first {
                add("Relate " + list(shown) + " (\(formula))")
            }
        }
        // German notes define in a form of their own: "Dann heißt ϕ eine Isometrie von X nach Y".
        let germanTerms = heisst(in: sentences).filter(definable)
        if !germanTerms.isEmpty { add("Define " + list(germanTerms.prefix(termsPerDefinition).map(phrase))) }
        // A definition that gives a formula ("p = m v") makes a quantity to calculate.
        for term in terms where term.definition.range(of: #"(?:^|[\s(])[A-Za-zα-ωΔ][\w]{0,3} = \S"#, options: .regularExpression) != nil {
            add("Calculate \(phrase(term.term))")
        }
        // A rule with what the text does with it ("Apply Newton's second law to the rope").
        for rule in rules(in: sentences) { add(applied(rule, in: sentences) ?? rule) }
        // Each form is looked for only in a sentence holding its words (a scan of the sentence's
        // bytes): most sentences hold none, and the expressions were run on every one.
        for sentence in sentences {
            let lower = sentence.lowercased()
            if lower.contains(" of "), divisionWords.contains(where: lower.contains) {
                for kinds in Self.kinds(in: sentence) where taught(kinds.subject) {
                    let number = kinds.number.map { $0 + " " } ?? ""
                    add("\(kinds.verb) the \(number)\(kinds.noun) of \(phrase(kinds.subject))")
                }
            }
            if contrastWords.contains(where: lower.contains), let pair = contrast(in: sentence), taught(pair.0) && taught(pair.1) {
                add("Distinguish \(phrase(pair.0)) from \(phrase(pair.1))")
            }
            if lower.contains("between"), let pair = relation(in: sentence), taught(pair.0) || taught(pair.1) {
                add("Explain the relationship between \(phrase(pair.0)) and \(phrase(pair.1))")
            }
            if lower.contains("role"), let role = role(in: sentence), taught(role.0) {
                add("Describe the role of \(phrase(role.0)) in \(phrase(role.1))")
            }
            if lower.contains("argument"), let argued = arguments(in: sentence), taught(argued.subject) {
                add("Evaluate the arguments \(argued.side) \(phrase(argued.subject))")
            }
        }
        var described = 0
        for heading in headings where described < headingObjectives {
            let clean = withoutNumber(heading).trimmingCharacters(in: .whitespaces)
            // One everyday word ("Sections") names no subject; a name the text gives a kind to
            // ("The metropolis theme is a Beamer theme …") is described with it.
            guard namesASubject(clean), taught(clean), clean.contains(" ") || definable(TermMatcher.stem(clean.lowercased())) else { continue }
            let before = statements.count
            add("Describe \(phrase(kindNamed(clean, in: sentences) ?? clean))")
            if statements.count > before { described += 1 }
        }
        // Nothing in these forms: what the text states (a run-in term, a stated rule, a counted
        // list, two kinds side by side, a quantity to find) before the unit's objectives stand in.
        if statements.isEmpty {
            let lines = prose.flatMap { $0.text.split(separator: "\n").map(String.init) }
            for statement in StatedObjectives.objectives(lines: lines, sentences: sentences, spoken: prose.allSatisfy { $0.kind == .transcript },
                                                         textWords: textWords, phrase: phrase) {
                add(statement)
            }
        }
        // A written text whose terms are all named on the way (a book's chapter introduction
        // defines its key terms once each) keeps them rather than no objective of its own, where
        // its title names no subject for the builder to describe (a lecture's side term is no
        // objective: "Define rolling resistance").
        if statements.isEmpty, !prose.contains(where: { $0.kind == .transcript }), title.flatMap({ titleSubject($0, passages: passages) }) == nil {
            let unweighed = outerTerms(candidates.filter { $0.basis != .emphasised } + candidates.filter { $0.basis == .emphasised }, \.term)
            for group in stride(from: 0, to: min(unweighed.count, termsPerDefinition * definitionObjectives), by: termsPerDefinition) {
                add("Define " + list(unweighed[group..<min(unweighed.count, group + termsPerDefinition)].map { phrase(withoutState($0.term)) }))
            }
        }
        return statements
    }

    /// A title that names the task a topic teaches ("20.4 Integrate Acceleration with Respect to
    /// Time and Position", "Calculating Angular Momentum"), as its objective ("Integrate
    /// acceleration with respect to time and position"), for a topic whose text gave none: only
    /// where the title opens with a task's verb and the text says its content words. Topics
    /// without objectives carried their unit's overall one ("Define work and joule"), which such
    /// a title says better.
    static func titleTask(_ title: String, passages: [Passage]) -> String? {
        // "(2/3): Plus Delta …", " - Part II": a part's name, not the task.
        for text in titleNames(title, cuts: [" (", ": ", " - "]) {
            let words = text.split(separator: " ").map(String.init)
            guard words.count >= 3, let verb = taskVerbs[words[0].lowercased()] else { continue }
            let rest = words.dropFirst().joined(separator: " ")
            guard textSays(rest, passages) else { continue }
            return verb + " " + inSentence(rest, commonWords: commonWords(passages.map(\.text)))
        }
        return nil
    }

    /// What a title names, without its number and what follows `cuts`; then, for one part of a
    /// lecture ("12.2 Pulley Problem - Part II, Constraint Condition"), the part's own name.
    static func titleNames(_ title: String, cuts: [String]) -> [String] {
        let whole = withoutNumber(title)
        func cut(_ name: String) -> String {
            var text = name
            for mark in cuts { if let found = text.range(of: mark) { text = String(text[..<found.lowerBound]) } }
            return text
        }
        var names = [cut(whole)]
        if whole.contains("Part "), let part = whole.range(of: #"\bPart (?:[IVX]+|\d+), "#, options: .regularExpression) {
            names.append(cut(String(whole[part.upperBound...])))
        }
        return names
    }

    /// "Describe <the subject a title names>" ("35.2 Rolling Wheel in the Center of Mass Frame"
    /// → "Describe rolling wheel in the center of mass frame"), for a topic with no objective of
    /// its own none of whose unit's objectives is about its text: nil unless the title is a noun
    /// phrase naming a subject (no part, problem, demo or review, no number) whose content words
    /// the text says; a one-word title only where the text keeps to it (`keepsTo`).
    static func titleSubject(_ title: String, passages: [Passage]) -> String? {
        for text in titleNames(title, cuts: [" (", ": ", " - ", ", "]) {
            let words = text.split(separator: " ").map { $0.lowercased() }
            guard !words.isEmpty, namesASubject(text) || modifiedBy(words, passages),
                  !words.contains(where: { titleApparatus.contains($0) || $0.contains(where: \.isNumber) }) else { continue }
            // One word ("Integrals", "Stetigkeit") names the subject where the text keeps to it.
            guard words.count >= 2 ? textSays(text, passages) : keepsTo(words[0], passages) else { continue }
            return "Describe " + inSentence(text, commonWords: commonWords(passages.map(\.text)))
        }
        return nil
    }

    /// A title opening on an -ing word that names a kind of thing, not an activity ("Rolling
    /// Wheel in the Center of Mass Frame", against "Becoming a Philosophy Teacher"): the text says
    /// its first two words together.
    static func modifiedBy(_ words: [String], _ passages: [Passage]) -> Bool {
        guard words.count >= 2, words[0].hasSuffix("ing"), !ContentWords.stopwords.contains(words[1]),
              !KeyTermExtraction.prepositions.contains(words[1]) else { return false }
        let pair = TermMatcher.stems(words[0] + " " + words[1])
        return passages.contains { [.text, .transcript, .list].contains($0.kind) && TermMatcher.count(pair, in: TermMatcher.stems($0.text)) > 0 }
    }

    /// Uses of a one-word title's subject, or of the word it is made from ("stetig" of
    /// "Stetigkeit"), a text needs to be about it.
    static let subjectUses = 3

    /// Whether the text uses `word` (a one-word title, in lower case) `subjectUses` times, as it
    /// is or as the word of five letters or more it is made from; an everyday word names no subject.
    static func keepsTo(_ word: String, _ passages: [Passage]) -> Bool {
        let stem = TermMatcher.stem(WordTokenizer.fold(word))
        guard stem.count >= 5, definable(word), !KeyTermExtraction.vague.contains(word) else { return false }
        var uses = 0
        for passage in passages where [.text, .transcript, .list].contains(passage.kind) {
            for other in TermMatcher.stems(passage.text) where other == stem || other.count >= 5 && stem.hasPrefix(other) {
                uses += 1
                if uses >= subjectUses { return true }
            }
        }
        return false
    }

    /// Whether the topic's text (its prose, transcript and lists) says every content word of a title's `words`.
    static func textSays(_ words: String, _ passages: [Passage]) -> Bool {
        let content = Set(TermMatcher.stems(words).filter { !ContentWords.stopwords.contains($0) && $0.count > 2 })
        let textWords = Set(passages.filter { [.text, .transcript, .list].contains($0.kind) }.flatMap { TermMatcher.stems($0.text) })
        return !content.isEmpty && content.isSubset(of: textWords)
    }

    /// Words of a title that names a lesson's place or kind, not its subject.
    static let titleApparatus: Set<String> = [
        "summary", "review", "introduction", "demo", "problem", "problems", "part", "example", "overview", "worked", "far",
        "questions", "solution", "solutions", "recap", "continued", "week", "lecture",
    ]

    /// "the metropolis theme" for a one-word heading "Metropolis" whose text says "The
    /// metropolis theme is a …": the heading's name with the kind the text defines it as.
    static func kindNamed(_ heading: String, in sentences: [String]) -> String? {
        guard !heading.contains(" ") else { return nil }
        let opening = "the " + heading.lowercased() + " "
        for sentence in sentences where sentence.lowercased().hasPrefix(opening) {
            let words = sentence.split(separator: " ").map(String.init)
            guard words.count >= 5, words[3] == "is", ["a", "an", "the"].contains(words[4].lowercased()),
                  words[2].allSatisfy(\.isLetter), !ContentWords.stopwords.contains(words[2].lowercased()) else { continue }
            return "the " + words[1] + " " + words[2]
        }
        return nil
    }

    /// Sentences of a topic's opening its title's definition is looked for in.
    static let titleSentences = 5

    /// The subject `title` names ("The pipeline function") where one of `sentences` opens on it
    /// and says what it is ("The pipeline function is the most high level API of …"); nil for a
    /// title that is a question, an activity or apparatus, or longer than four words.
    static func definedTitle(_ title: String, in sentences: ArraySlice<String>) -> String? {
        let name = withoutNumber(title).trimmingCharacters(in: .whitespaces)
        let words = name.split(separator: " ")
        guard words.count >= 2, words.count <= 4, namesASubject(name) else { return nil }
        let opening = (words.first?.lowercased() == "the" ? "" : "the ") + name.lowercased() + " is "
        guard sentences.contains(where: { $0.lowercased().hasPrefix(opening) }) else { return nil }
        return words.first?.lowercased() == "the" ? "the " + words.dropFirst().joined(separator: " ") : "the " + name
    }

    /// A title's first word that names a task, and the verb its objective takes (and a lecture's
    /// lead: "The lecture shows how to integrate …").
    static let taskVerbs: [String: String] = [
        "integrate": "Integrate", "integrating": "Integrate", "solve": "Solve", "solving": "Solve",
        "calculate": "Calculate", "calculating": "Calculate", "determine": "Determine", "determining": "Determine",
        "find": "Find", "finding": "Find", "derive": "Derive", "deriving": "Derive", "compute": "Compute", "computing": "Compute",
        "analyze": "Analyze", "analyse": "Analyse", "set": "Set", "use": "Use", "apply": "Apply", "draw": "Draw", "make": "Make", "choose": "Choose",
    ]

    /// A text uses a term it defines at least this many times when the term is what it teaches.
    static let weightUses = 2

    /// Whether a term a text defines or names (not a glossary's) is about the topic: its title
    /// names it, or its text uses it `weightUses` times. Named once in passing it is a side term
    /// ("There's other types of friction called rolling resistance" in a lecture on a wheel's
    /// friction, "the citric acid cycle, also called the Krebs cycle" in one on respiration): a
    /// learner who studied the topic could not say what it is, and "Define" of it was graded no outcome.
    /// A title names a term it holds ("Relative Velocity is Independent …" and "relative velocity
    /// initial", as its objective says it) or one that narrows its subject ("Density" and "linear density").
    static func weighty(_ term: String, textWords: [String], titleWords: [String]) -> Bool {
        let stems = TermMatcher.stems(withoutState(term))
        guard !stems.isEmpty else { return false }
        let subject = titleWords.filter { !ContentWords.stopwords.contains($0) && !$0.contains(where: \.isNumber) }
        return TermMatcher.count(stems, in: titleWords) > 0 || !subject.isEmpty && TermMatcher.count(subject, in: stems) > 0
            || TermMatcher.count(stems, in: textWords) >= weightUses
    }

    /// `terms` without one that is part of another ("slipping" beside "rolling without slipping",
    /// "Define rolling without slipping, wheel and slipping"): the longer names it.
    static func outerTerms<T>(_ terms: [T], _ name: (T) -> String) -> [T] {
        guard terms.count > 1 else { return terms }
        let stems = terms.map { TermMatcher.stems(name($0)) }
        return terms.indices.filter { index in
            !stems.indices.contains { other in other != index && stems[other].count > stems[index].count && TermMatcher.count(stems[index], in: stems[other]) > 0 }
        }.map { terms[$0] }
    }

    /// Whether a term the text defines or names is worth a "Define" objective: not one everyday
    /// word ("Define output and fill mask pipeline", "Define conservative force and path" were
    /// graded no outcomes: the lecture says what its output is, it does not teach "output").
    static func definable(_ term: String) -> Bool {
        let words = term.split(separator: " ").map { $0.lowercased() }
        // A symbol, a number or a spelled letter is no term: "n ground 1", "theta j", "8", "Xcm"
        // (told by its case from "NLP"; "CO2" and "GPT-2" are terms).
        guard !SymbolLabel.isLabel(term), !words.contains(where: { $0.allSatisfy(\.isNumber) || $0.hasPrefix("-") || $0.hasSuffix("-")
            || $0.contains(where: { !$0.isLetter && !$0.isNumber && !"-'’".contains($0) }) })
        else { return false }
        // A place on the board or the page: "left side", "equilibrium picture", "equal 0".
        guard words.count == 1 else { return !words.contains { boardWords.contains($0) } }
        return !everydayNouns.contains(words[0])
    }

    /// A defined term a tool, package or website is named by ("a web-based tool called code
    /// carbon"): a lecture names it, it is not what the lecture teaches.
    static func namesATool(_ term: KeyTerm) -> Bool {
        let termWords = term.term.lowercased().split(separator: " ").map(String.init)
        if let last = termWords.last, toolNouns.contains(last) { return true }
        let words = term.definition.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "-" }).map(String.init)
        guard let first = termWords.first, let start = words.firstIndex(of: first) else { return false }
        return words[max(0, start - 8)..<start].contains { toolNouns.contains($0) }
    }

    static let toolNouns: Set<String> = [
        "tool", "tools", "package", "library", "website", "app", "software", "platform", "calculator", "framework", "plugin",
    ]

    /// Words of a lecture's board or a page's layout, not of its subject.
    static let boardWords: Set<String> = ["side", "sides", "picture", "equal", "equals", "week", "hat", "slide", "board", "video", "lecture"]

    /// Nouns a lecture or a text "defines" in passing ("the output is …", "we call this the
    /// path") that name no subject to learn.
    static let everydayNouns: Set<String> = [
        "output", "outputs", "input", "inputs", "path", "string", "result", "results", "value", "values", "thing", "object",
        "number", "part", "point", "side", "end", "line", "form", "step", "case", "term", "word", "words", "text", "piece",
        "place", "area", "level", "amount", "type", "kind", "group", "list", "name", "question", "answer", "example", "idea",
        "way", "method", "approach", "process", "problem", "situation", "picture", "setup", "direction", "quantity", "stuff",
        "course", "video", "chapter", "section", "lecture", "lesson", "slide", "page", "model", "library",
        "please", "note", "welcome", "hello", "thanks",  // "Please refer to the documentation" defines nothing
        "hat", "location", "constant", "wheel", "property", "properties", "fact", "facts", "week", "ocw", "mit",
        // A German text's apparatus: proof, observation, remark, example, theorem, exercise.
        "beweis", "beobachtung", "bemerkung", "beispiel", "satz", "lemma", "korollar", "folgerung", "aufgabe", "lösung",
        "hinweis", "erinnerung", "notation", "definition",
    ]

    /// Words of prose a topic needs before its key phrases make an objective.
    static let keyPhraseWords = 40

    /// "Describe <the topic's two best key phrases>" (tf-idf against `background`), for a topic
    /// whose unit has no objectives to lend it; nil for a topic of little prose.
    static func keyPhraseObjective(passages: [Passage], background: [Passage]) -> String? {
        keyPhraseObjective(passages: passages, against: background.isEmpty ? nil : KeyPhrases.Background(background))
    }

    /// `keyPhraseObjective(passages:background:)` against a background counted once for a
    /// unit's topics (nil: the topic's own prose).
    static func keyPhraseObjective(passages: [Passage], against background: KeyPhrases.Background?) -> String? {
        let prose = passages.filter { [.text, .transcript, .list].contains($0.kind) }
        guard prose.reduce(0, { $0 + WordTokenizer.words($1.text).count }) >= keyPhraseWords else { return nil }
        var chosen: [String] = []
        for phrase in KeyPhrases.ranked(prose, against: background ?? KeyPhrases.Background(prose))
        where chosen.count < 2 && isConcept(phrase.shown) && phrase.shown.split(separator: " ").first.map({ !$0.lowercased().hasSuffix("ing") }) == true
            && !phrase.shown.lowercased().split(separator: " ").contains("per")  // a unit ("CO2 per kilowatt hour"), not a subject
            && !chosen.contains(where: { $0.lowercased().contains(phrase.shown.lowercased()) || phrase.shown.lowercased().contains($0.lowercased()) }) {
            chosen.append(phrase.shown)
        }
        guard !chosen.isEmpty else { return nil }
        let common = commonWords(prose.map(\.text))
        return "Describe " + list(chosen.map { inSentence($0, commonWords: common) })
    }

    /// Rules, laws, theorems and formulas the text names at least twice ("the chain rule",
    /// "Newton's second law"), the most named first, at most two: applied, or explained when a
    /// principle ("Explain the harm principle").
    static func rules(in sentences: [String]) -> [String] {
        let pattern = #"\b([A-Za-z][\w’'\-]*(?: [A-Za-z][\w’'\-]*)?) (rule|law|theorem|principle|equation|formula)s?\b(?: of ([a-z][a-z\-]{3,}))?"#
        var counts: [String: (phrase: String, count: Int, first: Int)] = [:]
        for (index, sentence) in sentences.enumerated() {
            // Most sentences name no rule: a byte scan rules them out before the expression runs.
            guard mayNameARule(sentence) else { continue }
            for groups in captures(pattern, in: sentence) where groups.count >= 2 {
                var words = groups[0].split(separator: " ").map(String.init)
                // "the chain rule", "this rule", "a new law": the article or determiner is not the name
                // ("right" is, before "hand": the right-hand rule).
                // A verb before the name is the sentence's, not the rule's: "invokes natural law".
                while let first = words.first, ContentWords.stopwords.contains(first.lowercased()) || KeyTermExtraction.vague.contains(first.lowercased())
                        || ruleVerbs.contains(first.lowercased()) || KeyTermExtraction.verbs.contains(first.lowercased()) || isVerbForm(first),
                      !handed(words) {
                    words.removeFirst()
                }
                let head = groups[1].lowercased()
                let said = groups.count == 3 && !ContentWords.stopwords.contains(groups[2].lowercased()) ? " of " + groups[2].lowercased() : ""
                guard let first = words.first, !KeyTermExtraction.prepositions.contains(first.lowercased()),
                      !words.dropFirst(handed(words) ? 1 : 0).contains(where: { ContentWords.stopwords.contains($0.lowercased()) || numberWords.contains($0.lowercased()) }),
                      !genericRule(words, head: head, of: said), !words.contains(where: { $0.count == 1 })  // "the x equation"
                else { continue }
                // A numbered law is one name however it is said: "Newton's Second law of motion" and
                // "Newton's second law" were two objectives of one unit.
                let numbered = words.count >= 2 && ordinals.contains(words[words.count - 1].lowercased())
                if numbered { words[words.count - 1] = words[words.count - 1].lowercased() }
                let phrase = (words + [head]).joined(separator: " ")
                let key = phrase.lowercased()
                let of = numbered && said == " of motion" ? "" : said
                // "the universal law of gravitation" is shown whole where the text once says it so.
                let shown = counts[key].map { $0.phrase.contains(" of ") || of.isEmpty ? $0.phrase : phrase + of } ?? phrase + of
                counts[key] = (shown, (counts[key]?.count ?? 0) + 1, counts[key]?.first ?? index)
            }
        }
        return counts.values.filter { $0.count >= 2 }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.first < $1.first }.prefix(2).map { rule in
            let named = rule.phrase.split(separator: " ").first.map { $0.hasSuffix("’s") || $0.hasSuffix("'s") } ?? false
            let verb = rule.phrase.hasSuffix("principle") ? "Explain" : "Apply"
            return "\(verb) \(named ? "" : "the ")\(rule.phrase)"
        }
    }

    /// The rule an objective of `rules(in:)` applies, as it names it ("Apply Newton's second
    /// law" → "Newton's second law", "Apply the chain rule" → "the chain rule"); nil for any
    /// other statement, and for one that already says what the rule is applied to.
    static func appliedRule(_ statement: String) -> String? {
        // "Explain the momentum principle": a principle `rules(in:)` names is applied as a rule is.
        guard statement.hasPrefix("Apply ") || statement.hasPrefix("Explain the ") && statement.hasSuffix(" principle"),
              !statement.contains(" to ") else { return nil }
        let name = String(statement.drop(while: { $0 != " " }).dropFirst())
        let words = name.lowercased().split(separator: " ")
        let head = words.count >= 3 && words[words.count - 2] == "of" ? words[words.count - 3] : words.last ?? ""
        return ruleHeads.contains(String(head)) ? name : nil
    }

    /// The words a rule's name ends with.
    static let ruleHeads: Set<String> = ["rule", "law", "theorem", "principle", "equation", "formula"]

    /// What the text does with a rule it names, where a sentence says so: "we'll apply Newton's
    /// second law to the rope" → "Apply Newton's second law to the rope", "use Newton's second
    /// law to relate impulse to change in momentum" → "Use Newton's second law to relate impulse
    /// to change in momentum" (`rule`: the objective `rules(in:)` made). A law a course applies in
    /// lesson after lesson says nothing of one lesson alone; what it is applied to here does.
    /// Nil where no sentence says it in a clause of words (no symbol, pronoun or working).
    static func applied(_ rule: String, in sentences: [String]) -> String? {
        guard let name = appliedRule(rule) else { return nil }
        let bare = name.lowercased().hasPrefix("the ") ? String(name.dropFirst(4)) : name
        let key = bare.replacingOccurrences(of: "’", with: "'")
        var object: String?
        for sentence in sentences where sentence.count < 400 {
            let text = sentence.replacingOccurrences(of: "’", with: "'")
            guard let found = text.range(of: key, options: .caseInsensitive) else { continue }
            // The verb before it: "apply (the) X", "using X", "we use X".
            let before = text[..<found.lowerBound].split(separator: " ").map { $0.lowercased() }
            guard let verb = before.last == "the" ? before.dropLast().last : before.last, applyVerbs.contains(verb) else { continue }
            let after = text[found.upperBound...].split(separator: " ").map(String.init)
            guard after.first == "to", let clause = appliedClause(Array(after.dropFirst())) else { continue }
            // "conclude that the tension … is uniform"; not "define a direction that tells".
            if let first = clause.first, ruleTaskVerbs.contains(first.lowercased()), clause.count >= 3,
               !clause.dropFirst(2).contains(where: { ["that", "which", "who"].contains($0.lowercased()) }) {
                return "Use \(name) to \(clause.joined(separator: " "))"
            }
            // "to the rope", "to circular motion": what it is applied to, without an adverb after it.
            var thing = clause
            while let last = thing.last, last.count > 4, last.lowercased().hasSuffix("ly") { thing.removeLast() }
            if object == nil, !thing.isEmpty, thing.count <= 4, let first = thing.first?.lowercased(), !ruleTaskVerbs.contains(first),
               !thing.contains(where: { ["that", "which", "who"].contains($0.lowercased()) }) {
                object = "Apply \(name) to " + (first == "our" ? ["the"] + thing.dropFirst() : thing).joined(separator: " ")
            }
        }
        return object
    }

    /// The words after "apply X to" up to the end of their clause: at most ten, each a word of
    /// letters (no symbol, number or spoken filler); nil for a pronoun ("apply it to that") or a
    /// clause that runs on.
    static func appliedClause(_ words: [String]) -> [String]? {
        var clause: [String] = []
        for word in words {
            let lower = word.lowercased()
            if appliedClauseEnds.contains(lower) || KeyPhrases.spokenFillers.contains(lower) { break }
            let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:?!-"))
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "'" }), trimmed.count > 1 || trimmed.lowercased() == "a"
            else { return nil }
            clause.append(trimmed)
            if clause.count > 10 { return nil }
            if trimmed != word { break }
        }
        // "analyze this motion", "determine what is the maximum force": pointing at the board or asking.
        guard let first = clause.first?.lowercased(), let last = clause.last?.lowercased(), !["it", "them", "that"].contains(first),
              !clause.contains(where: { pointingWords.contains($0.lowercased()) }),
              !ContentWords.stopwords.contains(last), !KeyTermExtraction.prepositions.contains(last) else { return nil }
        return clause
    }

    /// Words that point at the board or ask, which no objective holds.
    static let pointingWords: Set<String> = ["this", "these", "those", "here", "there", "what", "how", "why", "whether", "it", "them", "something"]

    /// Words a lecturer applies a rule with.
    static let applyVerbs: Set<String> = ["apply", "applied", "applying", "applies", "use", "used", "using", "uses", "invoke", "invoking"]
    /// Verbs after "use X to" that name what the rule is used for.
    static let ruleTaskVerbs: Set<String> = [
        "relate", "find", "show", "conclude", "calculate", "determine", "derive", "analyze", "analyse", "solve", "obtain", "compute",
        "explain", "predict", "describe", "express", "get", "model", "define", "write", "see", "make", "figure",
    ]
    /// Words that end the clause after "apply X to".
    static let appliedClauseEnds: Set<String> = [
        "and", "which", "because", "so", "but", "where", "if", "when", "while", "then", "since", "as", "or", "we", "i", "you",
    ]

    /// The number a numbered law is named by ("Newton's second law", "the first law of thermodynamics").
    static let ordinals: Set<String> = ["first", "second", "third", "zeroth"]

    /// A verb's form in lower case ("invokes", "derived"), which no rule's name opens with.
    static func isVerbForm(_ word: String) -> Bool {
        guard word.count >= 5, word.first?.isLowercase == true else { return false }
        return (word.hasSuffix("es") && !word.hasSuffix("ies") && !word.hasSuffix("ses")) || (word.hasSuffix("ed") && !word.hasSuffix("eed"))
    }

    /// "right hand" of the right-hand rule, where "right" is otherwise a word of speech.
    static func handed(_ words: [String]) -> Bool {
        words.count == 2 && ["right", "left"].contains(words[0].lowercased()) && words[1].lowercased() == "hand"
    }

    /// Whether a sentence holds one of the words a rule's name ends with ("rule", "law",
    /// "theorem", "principle", "equation", "formula"), found without an expression.
    static func mayNameARule(_ sentence: String) -> Bool {
        let lower = sentence.lowercased()
        return ["rule", "law", "theorem", "principle", "equation", "formula"].contains { lower.contains($0) }
    }

    /// A name that says what kind of rule it is, not which ("the simple law", "the force law",
    /// "the differential equation", "the quadratic equation"): no rule to apply. A principle's
    /// name is kept ("the momentum principle" is the course's own).
    static func genericRule(_ words: [String], head: String, of: String) -> Bool {
        let lower = words.map { $0.lowercased() }
        if lower.contains(where: vagueRuleWords.contains) { return true }
        guard head != "principle", of.isEmpty, !(words.first.map { $0.hasSuffix("’s") || $0.hasSuffix("'s") } ?? false) else { return false }
        return lower.contains(where: kindOfRuleWords.contains)
    }

    /// Words that say nothing of which rule: "the simple law", "the special equation of motion".
    static let vagueRuleWords: Set<String> = ["simple", "separate", "special", "physical", "general", "basic", "original", "previous", "famous", "macroscopic"]

    /// Words that say what kind of rule, not which, unless an "of …" names it ("the universal
    /// law" against "the universal law of gravitation").
    static let kindOfRuleWords: Set<String> = [
        "force", "vector", "quadratic", "differential", "universal", "gravitational", "linear", "scalar", "algebraic",
        "kinematic", "component", "constraint", "conservation", "torque", "mathematical", "fundamental", "dynamic", "dynamical",
    ]

    /// Verbs a heading or an instruction opens with before a rule ("Derive differential equation").
    static let ruleVerbs: Set<String> = [
        "derive", "derives", "solve", "solves", "calculate", "calculates", "compute", "computes", "determine", "determines", "show", "shows",
        "set", "sets", "obtain", "obtains", "integrate", "differentiate", "use", "uses", "apply", "applies", "invoke", "invokes", "follow", "follows",
    ]

    /// Terms a lecturer names as they introduce them, in order, each once: "what we call the
    /// center of mass", "we call this force a conservative force", "we define the kinetic energy
    /// as …". Speech rarely says "X is a Y that …", the form a definition sentence takes in a book.
    static func named(in sentences: [String]) -> [String] {
        let patterns = [
            #"\bwhat (?:we|i|you|physicists|people) (?:call|refer to as)(?: a| an| the)? ([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,4})"#,
            #"\b(?:we|i) (?:call|called) (?:this|that|it|these|them)(?: [a-z]+)? (?:a |an |the )?([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,4})"#,
            #"\bwe define (?:the |a |an )?([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,3}) (?:as|to be)\b"#,
            // "which we're going to call the scalar product", "this is called the normal force".
            #"\b(?:we['’]re|we are|i['’]m|i am) going to call (?:this |that |it )?(?:a |an |the )?([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,4})"#,
            #"\b(?:this|that|it) is called (?:a |an |the )?([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,4})"#,
            // "We're calling kinetic energy K": a quantity given its symbol.
            #"\bwe(?:['’]re| are) calling ([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,3}) [A-Za-z]\b"#,
            // "We would now like to introduce the concept of work."
            #"\bintroduce (?:the )?(?:concept|idea|notion) of (?:a |an |the )?([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,3})"#,
            // "What is a coordinate system?": a lecturer asking for a definition before giving it.
            #"^(?:so |and |now |well,? )?what is an? ([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,2})\?$"#,
            // "The idea of transfer learning is to leverage …": the lecture's subject, said as such
            // ("The concept of benevolence is important", "The idea of … is not unique" say what it is not).
            #"^(?:so |and |now )?the (?:idea|concept|notion) of ([A-Za-z][\w\-]*(?: [A-Za-z][\w\-]*){0,3}) is (?:to|that|simply|basically|just)\b"#,
        ]
        var result: [String] = []
        var seen = Set<[String]>()
        for sentence in sentences {
            // Most sentences name nothing: a byte scan rules them out before the expressions run.
            let lower = sentence.lowercased()
            guard lower.contains("call") || lower.contains("define") || lower.contains("idea of") || lower.contains("concept of")
                || lower.contains("notion of") || lower.hasSuffix("?") && lower.contains("what is a") else { continue }
            for pattern in patterns {
                for groups in captures(pattern, in: sentence) {
                    // After "the concept of" a common word is the noun it names ("introduce the concept of work").
                    let conceptNoun = pattern.contains("concept|idea|notion) of (?:a") ? groups.first.flatMap(commonNoun) : nil
                    guard let candidate = groups.first, let term = leadingTerm(candidate) ?? conceptNoun, isConcept(term) || term == conceptNoun,
                          definable(term) else { continue }
                    // "a differential equation, which is called the rocket equation": a lecture that
                    // names a rule sets it up or applies it; "Define" of it is no outcome.
                    if let last = term.split(separator: " ").last, ruleHeads.contains(last.lowercased()) { continue }
                    // "I'm going to call pulley A", "call that T2": a label for a thing on the board
                    // (not "what we call the normal force N", "the scalar product a dot b": a term and its symbol).
                    if !term.contains(" "), let after = candidate.split(separator: " ").dropFirst().first,
                       after.count == 1 && after.first!.isUppercase || after.contains(where: \.isNumber) { continue }
                    guard seen.insert(TermMatcher.stems(term)).inserted else { continue }
                    result.append(term)
                }
            }
        }
        return result
    }

    /// Quantities a text defines with their symbol set beside them, in order, each once:
    /// "Period, \(T\), is defined as …", "Angular frequency, \(\omega\), is the rotation rate …".
    static func symbolDefinitions(in sentences: [String]) -> [String] {
        let pattern = #"^(?:The )?([A-Za-z][\w\-]*(?: [a-z][\w\-]*){0,2}),? \\\(.{1,24}?\\\),? (?:is|are) "#
        var result: [String] = []
        for sentence in sentences where sentence.contains("\\(") && (sentence.contains(" is ") || sentence.contains(" are ")) {
            for groups in captures(pattern, in: sentence) {
                guard let term = groups.first, isConcept(term), !result.contains(where: { $0.lowercased() == term.lowercased() }) else { continue }
                result.append(term)
            }
        }
        return result
    }

    /// The formula a sentence relates quantities by, readable ("f = 1/T = ω/2π"), when it sets one
    /// in `\( … \)` with an equals sign and it is short enough for an objective.
    static func relatingFormula(_ sentence: String) -> String? {
        guard let open = sentence.range(of: "\\("), let close = sentence.range(of: "\\)", range: open.upperBound..<sentence.endIndex) else { return nil }
        let latex = String(sentence[open.upperBound..<close.lowerBound])
        let formula = TextCleanup.collapseWhitespace(MathText.unicode(latex).replacingOccurrences(of: "=", with: " = "))
        guard latex.contains("="), !formula.contains("\\"), formula.count <= 40 else { return nil }
        return formula
    }

    /// A term without the state a lecturer gives the quantity ("the relative velocity initial"
    /// is the relative velocity); a term that is only the state stays.
    static func withoutState(_ term: String) -> String {
        let words = term.split(separator: " ")
        guard words.count > 1, let last = words.last, ["initial", "final"].contains(last.lowercased()) else { return term }
        return words.dropLast().joined(separator: " ")
    }

    /// The first word of `text` as a noun a lecture introduces though it is a common word ("work",
    /// "power"): four letters or more, not vague or everyday; nil otherwise.
    static func commonNoun(_ text: String) -> String? {
        guard let first = text.split(separator: " ").first.map({ String($0).lowercased() }), first.count >= 4, first.allSatisfy(\.isLetter),
              !KeyTermExtraction.vague.contains(first), !everydayNouns.contains(first) else { return nil }
        return first
    }

    /// Terms a German text defines: "… heißt X", "… heißen X" ("Dann heißt ϕ eine Isometrie von
    /// X nach Y" → "Isometrie"), in order, each once; a definition states them, so no count is asked.
    static func heisst(in sentences: [String]) -> [String] {
        let pattern = #"\bhei(?:ß|ss)(?:t|en) (?:[^\sA-Za-zÄÖÜäöüß]\S{0,2} |[A-Za-z] )?(?:genau dann )?(?:ein |eine |einer |der |die |das |dann )?([A-Za-zÄÖÜäöüß][\wÄÖÜäöüß\-]*(?: [A-Za-zÄÖÜäöüß][\wÄÖÜäöüß\-]*){0,2})"#
        var result: [String] = []
        var seen = Set<String>()
        // Sentences without "heiß…"/"heiss…" (every English one) skip the expression.
        for sentence in sentences where sentence.contains("eiß") || sentence.contains("eiss") {
            for groups in captures(pattern, in: sentence) {
                guard let candidate = groups.first else { continue }
                let words = candidate.split(separator: " ").prefix { !germanFunctionWords.contains($0.lowercased()) && $0.count > 1 }
                // A term has a noun (capitalised in German) or is one adjective ("hausdorffsch").
                guard !words.isEmpty, words.count == 1 || words.contains(where: { $0.first?.isUppercase == true }),
                      words.joined().count >= 4, seen.insert(words.joined(separator: " ").lowercased()).inserted else { continue }
                result.append(words.joined(separator: " "))
            }
        }
        return result
    }

    /// German words a defined term ends before.
    static let germanFunctionWords: Set<String> = [
        "von", "oder", "und", "wenn", "falls", "mit", "in", "im", "auf", "für", "nach", "zu", "zum", "zur", "der", "die", "das", "des",
        "dem", "den", "ein", "eine", "einer", "eines", "genau", "dann", "bzgl", "bzw", "über", "um", "an", "bei", "aus", "ist", "sind",
    ]

    /// The noun phrase a lecturer's "what we call …" opens with: up to four words, "of" inside
    /// ("coefficient of kinetic friction"), ended by a function word, a verb of speech or a filler.
    static func leadingTerm(_ text: String) -> String? {
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            let lower = word.lowercased()
            // "coefficient of kinetic friction", "rolling without slipping".
            if lower == "of" || lower == "without", !words.isEmpty { words.append(word); continue }
            // "the normal force N", "pulley A", "kinetic energy K": the symbol after a term is not of it.
            if !words.isEmpty, word.count == 1 || SpokenSentences.isIndexedSymbol(word) { break }
            if ContentWords.stopwords.contains(lower) || KeyPhrases.spokenFillers.contains(lower) || KeyTermExtraction.prepositions.contains(lower)
                || KeyTermExtraction.verbs.contains(lower) || words.count == 4 { break }
            words.append(word)
        }
        while let last = words.last, ["of", "without"].contains(last.lowercased()) { words.removeLast() }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// "Newton's three laws", "the five equations": a count, not the name of a rule.
    static let numberWords: Set<String> = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several", "many", "both"]

    /// A heading that is a noun phrase naming a subject: not apparatus, a question, an
    /// instruction ("Prepare to Read", "Stop") or an activity ("Becoming a Philosophy Teacher").
    static func namesASubject(_ heading: String) -> Bool {
        let words = heading.split(separator: " ").map { $0.lowercased() }
        guard let first = words.first, !heading.hasSuffix("?"), !heading.contains(":"), !apparatus.contains(heading.lowercased()),
              words.count <= 8 else { return false }
        if first.hasSuffix("ing") || instructions.contains(first) || KeyTermExtraction.prepositions.contains(first) { return false }
        return words.count > 1 || heading.first?.isUppercase == true
    }

    /// Verbs a heading opens with when it tells the reader what to do.
    static let instructions: Set<String> = [
        "stop", "prepare", "identify", "collect", "build", "accurately", "strive", "abstract", "promote", "consider", "find",
        "investigate", "trace", "read", "write", "think", "use", "apply", "make", "take", "ask", "look", "keep", "avoid",
        "start", "learn", "practice", "know", "get", "be", "do", "explain", "describe", "define", "evaluate", "compare",
        "discuss", "review", "check", "try", "recall", "remember", "see", "watch", "listen", "imagine", "let", "putting", "what",
        "how", "why", "who", "when", "where", "which", "adopt", "first", "second", "third", "final", "next", "step",
    ]

    /// A noun phrase of one to four words (an article allowed before it).
    private static let nounPhrase = #"(?:the |a |an )?([A-Za-z][\w’'\-]*(?: [A-Za-z][\w’'\-]*){0,3}?)"#

    /// "three main schools of classical Chinese philosophy": the number, the kind of division and
    /// what is divided, with the verb that fits (stages are described, kinds identified).
    static func kinds(in sentence: String) -> [(verb: String, number: String?, noun: String, subject: String)] {
        let pattern = #"\b(two|three|four|five|six|seven|several|various|different) (?:main |major |basic |primary |distinct |broad |central |key )?"#
            + #"(types|kinds|forms|schools|categories|branches|classes|stages|steps|phases|principles|laws|approaches) of "# + nounPhrase + #"(?=[,.;:)]| and | that | which | in | to | for | is | are |$)"#
        return captures(pattern, in: sentence).compactMap { groups in
            guard groups.count == 3, isConcept(groups[2]) else { return nil }
            let number = ["several", "various", "different"].contains(groups[0].lowercased()) ? nil : groups[0].lowercased()
            let noun = groups[1].lowercased()
            let verb = ["stages", "steps", "phases"].contains(noun) ? "Describe" : ["principles", "laws", "approaches"].contains(noun) ? "Explain" : "Identify"
            return (verb, number, noun, groups[2])
        }
    }

    /// Words a sentence dividing a subject into kinds holds ("three main schools of …").
    static let divisionWords = ["types", "kinds", "forms", "schools", "categories", "branches", "classes", "stages", "steps", "phases",
                                "principles", "laws", "approaches"]
    /// Words a sentence drawing a contrast holds.
    static let contrastWords = ["differen", "distinguish", "contrast", "versus", " vs"]

    /// A side of a contrast: a concept, or one noun the sentence sets after "the" that is also
    /// a common word ("the difference between the mean and the median").
    static func contrastSide(_ side: String, in sentence: String) -> Bool {
        if isConcept(side) { return true }
        let lower = side.lowercased()
        return !lower.contains(" ") && lower.count >= 4 && !KeyTermExtraction.vague.contains(lower) && !everydayNouns.contains(lower)
            && sentence.lowercased().contains("the " + lower)
    }

    /// The two sides of a contrast the sentence draws: "the difference between X and Y",
    /// "distinguish X from Y", "X versus Y", "contrast X with Y", "unlike X, Y …".
    static func contrast(in sentence: String) -> (String, String)? {
        let end = #"(?=[,.;:)?]| in | is | are | that | which | for | to | has | have |$)"#
        let patterns = [
            #"\bdifferences? between "# + nounPhrase + " and " + nounPhrase + end,
            #"\bdistinguish(?:es|ed|ing)? (?:between )?"# + nounPhrase + " (?:and|from) " + nounPhrase + end,
            #"\bcontrast(?:s|ed|ing)? "# + nounPhrase + " (?:with|and) " + nounPhrase + end,
            nounPhrase + #" (?:versus|vs\.?) "# + nounPhrase + end,
        ]
        for pattern in patterns {
            for groups in captures(pattern, in: sentence) where groups.count == 2 && contrastSide(groups[0], in: sentence) && contrastSide(groups[1], in: sentence)
                && groups[0].lowercased() != groups[1].lowercased() {
                return (groups[0], groups[1])
            }
        }
        return nil
    }

    /// "the relationship between X and Y", "the connection between X and Y".
    static func relation(in sentence: String) -> (String, String)? {
        let pattern = #"\b(?:relationship|relation|connection|link) between "# + nounPhrase + " and " + nounPhrase
            + #"(?=[,.;:)?]| in | is | are | that | which | for | to | has | have |$)"#
        guard let groups = captures(pattern, in: sentence).first(where: { $0.count == 2 && isConcept($0[0]) && isConcept($0[1]) }) else { return nil }
        return (groups[0], groups[1])
    }

    /// "the role of X in Y", "the role X plays in Y".
    static func role(in sentence: String) -> (String, String)? {
        let pattern = #"\bthe (?:central |key |important )?role (?:of |that |which )?"# + nounPhrase + #"(?: plays| play| played)? in "# + nounPhrase
            + #"(?=[,.;:)?]| is | are | that | which | for | to | has | have |$)"#
        guard let groups = captures(pattern, in: sentence).first(where: { $0.count == 2 && isConcept($0[0]) && isConcept($0[1]) }) else { return nil }
        return (groups[0], groups[1])
    }

    /// "arguments for the existence of God": what the text argues over, and on which side.
    static func arguments(in sentence: String) -> (side: String, subject: String)? {
        let pattern = #"\barguments? (for|against) "# + #"((?:the )?[A-Za-z][\w’'\-]*(?: [A-Za-z][\w’'\-]*){0,5}?)(?=[,.;:)?]| is | are | that | which | and |$)"#
        guard let groups = captures(pattern, in: sentence).first, groups.count == 2 else { return nil }
        let subject = groups[1].hasPrefix("the ") ? String(groups[1].dropFirst(4)) : groups[1]
        guard isConcept(subject) || subject.split(separator: " ").count > 4 && !KeyTermExtraction.vague.contains(subject.split(separator: " ")[0].lowercased())
        else { return nil }
        return (groups[0].lowercased(), groups[1])
    }

    /// A phrase that names something to learn: no pronoun, vague word or clause.
    static func isConcept(_ phrase: String) -> Bool {
        let words = phrase.split(separator: " ").map { $0.lowercased() }
        guard let first = words.first, let last = words.last, phrase.count >= 3 else { return false }
        if ContentWords.stopwords.contains(last) || KeyTermExtraction.prepositions.contains(first) { return false }
        return KeyTermExtraction.isTerm(phrase)
    }

    /// The patterns above, compiled once each: compiled again for every sentence, they took 9.7 s
    /// of CPU on a topic of 2,000 sentences where matching takes 0.26 s (debug build).
    private static let compiled = Locked<[String: NSRegularExpression]>([:])

    private static func captures(_ pattern: String, in text: String) -> [[String]] {
        let cached = compiled.withLock { $0[pattern] }
        guard let regex = cached ?? (try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])) else { return [] }
        if cached == nil { compiled.withLock { $0[pattern] = regex } }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { index in
                Range(match.range(at: index), in: text).map { String(text[$0]).trimmingCharacters(in: .whitespaces) }
            }
        }
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
        let commonStems = Set(commonWords.map(TermMatcher.stem))
        let titleCased = words.filter { $0.first?.isLetter == true }.allSatisfy { $0.first!.isUppercase || minorWords.contains($0) }
        return words.enumerated().map { index, word in
            guard let first = word.first, first.isUppercase else { return word }
            if word.dropFirst().contains(where: \.isUppercase) { return word }
            let lower = word.lowercased()
            // In a sentence-case title only the first word is capitalised for position's sake.
            if !titleCased && index > 0 { return word }
            if commonWords.isEmpty { return minorWords.contains(lower) || index == 0 || titleCased ? lower : word }
            let parts = lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            // "Collisions" in a heading is common when the text writes "collision" in lower case.
            return minorWords.contains(lower) || (!parts.isEmpty && parts.allSatisfy { commonWords.contains($0) || commonStems.contains(TermMatcher.stem($0)) }) ? lower : word
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
