import Foundation

/// Facts a topic's prose states in shapes less central than a glossary entry, a block, a
/// formula or a defining sentence: a term defined in a relative clause ("Locke invokes natural
/// law, which is the notion that …"), what a thing is an example of ("Sentiment analysis is an
/// example of sequence classification"), an abbreviation's expansion ("Masked Language
/// Modeling, or MLM") and the year of an event ("The Catholic Church issued the Index of
/// Forbidden Books in 1559"). They are read only for a topic with explanatory text that would
/// otherwise have no card (`CardGeneration.coverage`), and each goes through the six checks
/// like every other card: the one card such a topic gets is still a fact its source states.
enum FallbackFacts {
    /// The shapes, in the order a topic's one card is chosen: a defined term first, a date last.
    enum Shape: Int, Comparable, Sendable {
        case spokenDefinition, relativeDefinition, exampleOf, abbreviation, dated

        static func < (a: Shape, b: Shape) -> Bool { a.rawValue < b.rawValue }
    }

    struct Fact: Equatable, Sendable {
        var shape: Shape
        var type: CardNoteType
        var front: String
        var back: String
        /// The sentence as the lecture says it (before `SpokenSentence` cleaned it), for the card's time.
        var said: String? = nil
    }

    /// The candidates of `topic`'s prose (text, list and transcript passages), in shape order,
    /// from sentences the source asserts (not in an example, a hypothetical, a question or an exercise).
    static func candidates(for topic: Topic, in deck: CardDeckContext) -> [Flashcard] {
        // The topic's key terms, and the quantities a physics lecture names without a glossary.
        // (Not "work", "power", "force", "mass", "time": words other subjects use in other senses.)
        let terms = topic.keyTerms.map(\.term).filter { WordTokenizer.words($0).count <= 5 }
            + FormulaStatements.quantities.map(\.name).filter { !["work", "power", "force", "mass", "time", "speed", "radius"].contains($0) }
        var found: [(fact: Fact, passage: Passage, order: Int)] = []
        var order = 0
        for passage in topic.passages where [.text, .list, .transcript].contains(passage.kind) {
            for sentence in PassageReading(passage).sentences where sentence.notAsserted == nil {
                // A lecturer's sentence is read as it would be written ("And so our velocity is just
                // the derivative …" → "The velocity is the derivative …"); a book's as it stands.
                let spoken = passage.kind == .transcript
                let text = spoken ? SpokenSentence.cleaned(sentence.text) : sentence.text
                var sentenceFacts = facts(in: text, terms: terms)
                if spoken, let defined = spokenDefinition(in: text) { sentenceFacts.insert(defined, at: 0) }
                for var fact in sentenceFacts {
                    fact.said = sentence.text
                    found.append((fact, passage, order))
                    order += 1
                }
            }
        }
        var asked = Set<String>()
        return found.sorted { ($0.fact.shape, $0.order) < ($1.fact.shape, $1.order) }
            .filter { asked.insert($0.fact.front.lowercased()).inserted }
            .map { deck.card(topic: topic, type: $0.fact.type, front: $0.fact.front, back: $0.fact.back,
                             origin: $0.fact.shape <= .relativeDefinition ? .definition : .statement, passage: $0.passage, at: $0.fact.said) }
    }

    /// The facts one sentence states, at most one of each shape.
    static func facts(in sentence: String, terms: [String] = []) -> [Fact] {
        [relativeDefinition(in: sentence, terms: terms), exampleOf(in: sentence), abbreviation(in: sentence), dated(in: sentence)].compactMap { $0 }
    }

    // MARK: A term defined in a relative clause

    /// "… invokes natural law, which is the notion that humankind …" → "What is natural law?" →
    /// "The notion that humankind …": one of the topic's key terms, then ", which is a/an/the …",
    /// ", which refers to …" or an appositive with its own clause ("torque, a vector quantity that
    /// represents a sort of rotational force"), up to the sentence's end or its next clause.
    static func relativeDefinition(in sentence: String, terms: [String]) -> Fact? {
        if let named = namedTermDefinition(in: sentence) { return named }
        if let fronted = frontedDefinition(in: sentence, terms: terms) { return fronted }
        if let defined = relativeSpokenDefinition(in: sentence) { return defined }
        guard sentence.contains(", which ") || sentence.contains(", a") else { return nil }
        let lowered = sentence.lowercased()
        let ns = sentence as NSString
        for term in terms where lowered.contains(term.lowercased() + ", which ") || lowered.contains(term.lowercased() + ", a") {
            // ", which is a/an/the …", ", which refers to …", or an appositive ", a … that …".
            let pattern = #"(?<![\p{L}-])"# + NSRegularExpression.escapedPattern(for: term)
                + #", (?:which (?:(?:is|are) (?=(?:a|an|the) )|refers? to )|(?=(?:a|an) [^,;:()—–]+? (?:that|which|who) ))"#
                // (", is a constant under …": the clause's own predicate follows; the definition ends there.)
                + #"(?<definiens>[^;:()—–]+?)(?:[;:—–]|, (?:and|but|while|which|so|is|are|was|were|has|have|can|will)\b|[.!]?$)"#
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                  let match = regex.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { continue }
            var definiens = ns.substring(with: match.range(withName: "definiens"))
            // An appositive ends at its comma: "pressure, a force that acts on an area, is …".
            if !ns.substring(with: match.range).contains(", which "), let comma = definiens.firstIndex(of: ",") {
                definiens = String(definiens[..<comma])
            }
            let words = WordTokenizer.words(definiens)
            guard (3...30).contains(words.count), let last = words.last, !CardChecks.danglingWords.contains(last),
                  StandaloneSentence.pointing(definiens) == nil, CardChecks.spokenTo(definiens) == nil else { continue }
            let plural = ns.substring(with: match.range).contains(", which are ")
            return Fact(shape: .relativeDefinition, type: .basic, front: "What \(plural ? "are" : "is") \(term)?",
                        back: definiens.prefix(1).uppercased() + definiens.dropFirst())
        }
        return nil
    }

    private static let namedTermPattern = try! NSRegularExpression(
        pattern: #"(?:^|(?<=\s))(?:[Tt]he |[Aa] |[Aa]n )?(?:term|word|concept|notion) (?:of )?["“]?(?<term>\p{L}[\p{L}-]*(?: [\p{L}-]+){0,2}?)["”]?(?:, (?<aside>[^,;:()]{3,80}), | |, which )(?<verb>refers to|means|denotes)[ ]+(?<definiens>[^;:()—–]+?)(?:[;:—–]|, (?:and|but|while|which|so|whereas)\b|[.!]?["”]?[.!]?$)"#)

    /// "The term polis, from which is derived the word political, refers to the city-state, the
    /// basic unit of government in ancient Greece." → "What does the term “polis” refer to?" →
    /// "The city-state, …"; "… the concept of telos, which means “goal directed.”" → "What does
    /// “telos” mean?" → "Goal directed": the source names the word a term ("the term", "the
    /// concept of"), so no glossary is needed to know it is one, and says what it means.
    static func namedTermDefinition(in sentence: String) -> Fact? {
        guard sentence.contains(" refers to ") || sentence.contains(" means ") || sentence.contains(" denotes ") else { return nil }
        let ns = sentence as NSString
        guard let match = namedTermPattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { return nil }
        let term = ns.substring(with: match.range(withName: "term"))
        let verb = ns.substring(with: match.range(withName: "verb"))
        let raw = ns.substring(with: match.range(withName: "definiens")).trimmingCharacters(in: .whitespaces)
        let quoted = raw.hasPrefix("“") || raw.hasPrefix("\"")
        let definiens = raw.trimmingCharacters(in: CharacterSet(charactersIn: "“”\".,! "))
        let termWords = WordTokenizer.words(term).map(WordTokenizer.fold)
        let words = WordTokenizer.words(definiens).map(WordTokenizer.fold)
        // (A quoted meaning may be short, "goal directed"; a phrase says what the term is in three words or more.)
        guard !termWords.isEmpty, !termWords.contains(where: { CardGrounding.functionWords.contains($0) || StandaloneSentence.pointers.contains($0)
                  || StandaloneSentence.openingPointers.contains($0) || CardChecks.contextWords.contains($0)
                  // ("The term Epicurean often refers to …": the adverb is no part of the term.)
                  || $0.hasSuffix("ly") || ["often", "also", "sometimes", "still", "now", "here", "then", "usually", "generally"].contains($0) }),
              (quoted ? 2 : 3)...30 ~= words.count, let end = words.last, !CardChecks.danglingWords.contains(end),
              !["that", "something", "anything", "what", "how", "different", "many", "more", "much"].contains(words[0]),
              StandaloneSentence.pointing(definiens) == nil, CardChecks.spokenTo(definiens) == nil,
              !definiens.contains(where: { "?“”\"".contains($0) }) else { return nil }
        let front = verb == "means" ? "What does “\(term)” mean?" : "What does the term “\(term)” \(verb == "denotes" ? "denote" : "refer to")?"
        return Fact(shape: .relativeDefinition, type: .basic, front: front, back: definiens.prefix(1).uppercased() + definiens.dropFirst())
    }

    /// "A branch of philosophy that looks at how society determines governance, political
    /// philosophy also considers …" → "What is political philosophy?" → "A branch of philosophy
    /// that …": an appositive opening the sentence, then one of the topic's key terms as its subject.
    static func frontedDefinition(in sentence: String, terms: [String]) -> Fact? {
        guard sentence.hasPrefix("A ") || sentence.hasPrefix("An ") else { return nil }
        let lowered = sentence.lowercased()
        for term in terms where lowered.contains(", \(term.lowercased()) ") {
            guard let comma = lowered.range(of: ", \(term.lowercased()) ") else { continue }
            let definiens = String(sentence[..<comma.lowerBound])
            let rest = sentence[comma.upperBound...]
            let words = WordTokenizer.words(definiens)
            // (The term goes on as the clause's subject: a verb, perhaps after "also".)
            guard (4...30).contains(words.count), !definiens.contains(","), let last = words.last, !CardChecks.danglingWords.contains(last),
                  let verb = rest.split(separator: " ").first.map({ String($0) == "also" ? rest.split(separator: " ").dropFirst().first.map(String.init) ?? "" : String($0) }),
                  verb.hasSuffix("s"), verb.first?.isLowercase == true,
                  StandaloneSentence.pointing(definiens) == nil, CardChecks.spokenTo(definiens) == nil else { continue }
            return Fact(shape: .relativeDefinition, type: .basic, front: "What is \(term)?", back: definiens)
        }
        return nil
    }

    // MARK: A lecturer's definition

    private static let spokenDefinitionPattern = try! NSRegularExpression(
        pattern: #"^(?:The |A |An )?(?<term>[a-z][a-z-]*(?: [a-z-]+){0,4}?) (?<verb>is|are) (?:(?<defined>defined (?<how>as|by|to be)) |(?=(?:the|a|an) ))(?<definiens>.+?)[.!]?$"#)

    /// Subjects that are a problem's particulars or a place in the lecture, not a term: "the
    /// momentum of the system", "the tension in the rope", "the answer".
    private static let particulars: Set<String> = [
        "system", "block", "blocks", "object", "objects", "particle", "particles", "rod", "car", "ball", "wheel", "disc", "disk",
        "sphere", "rope", "pulley", "string", "cart", "box", "person", "rocket", "ring", "yoyo", "cylinder", "problem", "answer",
        "result", "case", "thing", "way", "reason", "point", "question", "example", "picture", "figure", "diagram", "board",
    ]

    /// Heads of a definiens that say where it stands in the lecture, not what the term is
    /// ("the same in both frames", "the only force", "the first thing").
    private static let placeHeads: Set<String> = [
        "same", "only", "other", "following", "next", "last", "first", "second", "third", "one", "reason", "way", "answer",
        "result", "thing", "case", "problem", "question", "key", "main", "important", "big", "basic", "usual", "simplest",
    ]

    /// Words after which a definiens is a qualified phrase, not a bare noun ("the derivative of
    /// the velocity", "a vector quantity that …", "the point in the object where …").
    private static let qualifiers: Set<String> = ["of", "that", "which", "where", "whose", "who", "in", "with", "between", "per", "for"]

    /// "The instantaneous velocity is the time derivative of the position function." → "What is
    /// the instantaneous velocity?"; "The center of mass reference frame is defined by the
    /// condition that the total momentum in that frame is zero." → "What defines the center of
    /// mass reference frame?" → "The condition that …": a lecturer's sentence (cleaned of its
    /// openers, `SpokenSentence`) whose subject is a term and whose definiens is a qualified
    /// phrase, not a bare noun ("the force is a vector") nor a place in the lecture.
    static func spokenDefinition(in sentence: String) -> Fact? {
        guard sentence.contains(" is ") || sentence.contains(" are ") else { return nil }
        let ns = sentence as NSString
        guard let match = spokenDefinitionPattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { return nil }
        let term = ns.substring(with: match.range(withName: "term"))
        var definiens = ns.substring(with: match.range(withName: "definiens")).trimmingCharacters(in: .whitespaces)
        let verb = ns.substring(with: match.range(withName: "verb"))
        let how = match.range(withName: "how").location == NSNotFound ? nil : ns.substring(with: match.range(withName: "how"))
        let termWords = WordTokenizer.words(term).map(WordTokenizer.fold)
        // "center of mass": one "of" may join a term's words; any other function word makes it a clause.
        guard let first = termWords.first, let last = termWords.last,
              !termWords.contains(where: { ($0 != "of" && CardGrounding.functionWords.contains($0)) || particulars.contains($0)
                  || CardChecks.contextWords.contains($0) || StandaloneSentence.pointers.contains($0) }),
              first != "of", last != "of", !CardChecks.discourseWords.contains(first), !CardChecks.openers.contains(first),
              !SymbolLabel.isLabel(term), !CardChecks.genericHeads.contains(last), !["concept", "idea", "notion", "definition", "meaning"].contains(first)
        else { return nil }
        // "… is the derivative of the velocity, which …": the definition, not what follows it.
        if let clause = definiens.range(of: #", (?:which|and|but|so|where|because)\b|--|—|;"#, options: .regularExpression) {
            definiens = String(definiens[..<clause.lowerBound])
        }
        let words = WordTokenizer.words(definiens).map(WordTokenizer.fold)
        guard (3...30).contains(words.count), let end = words.last, !CardChecks.danglingWords.contains(end),
              words.dropFirst().contains(where: qualifiers.contains),
              !placeHeads.contains(words[["the", "a", "an"].contains(words[0]) ? 1 : 0]),
              StandaloneSentence.pointing(definiens) == nil, CardChecks.spokenTo(definiens) == nil,
              !definiens.contains("?"), !definiens.contains("("), !particular(definiens) else { return nil }
        let article = sentence.hasPrefix("The ") ? "the " : sentence.hasPrefix("A ") ? "a " : sentence.hasPrefix("An ") ? "an " : ""
        let named = article + term
        let front: String
        switch how {
        // "is defined by the condition that …": what defines it.
        case "by"?: front = "What \(verb == "is" ? "defines" : "define") \(named)?"
        case .some: front = "How \(verb) \(named) defined?"
        case nil: front = "What \(verb) \(named)?"
        }
        return Fact(shape: .spokenDefinition, type: .basic, front: front, back: definiens.prefix(1).uppercased() + definiens.dropFirst())
    }

    /// Whether a definiens speaks of one problem rather than the term: its body ("the weight of
    /// the object", "the forces on the jth particle") or the symbols on the board ("F.ds", "x of
    /// j plus 1", "R cross MJ"): a lone letter, or a capital past the first word.
    static func particular(_ definiens: String) -> Bool {
        let words = definiens.split(separator: " ").map(String.init)
        if words.contains(where: { particulars.contains(WordTokenizer.fold($0)) }) { return true }
        return words.enumerated().contains { index, word in
            let letters = word.filter(\.isLetter)
            // ("fg.ds": a dot product on the board.)
            return (letters.count == 1 && !["a", "A"].contains(letters)) || (index > 0 && word.contains(where: \.isUppercase))
                || word.contains(where: \.isNumber) || word.dropLast().dropFirst().contains(".")
        }
    }

    private static let relativeSpokenPattern = try! NSRegularExpression(
        pattern: #"(?<before>[\p{L} -]+?)(?:,|--| —) which (?:is|are|we(?:'ve|’ve| have)?) defined (?<how>as|by|to be) (?<definiens>[^;:()—–?]+?)(?:[;:—–]|--|, (?:and|but|while|which|so|where|is|are|was|were|has|have|can|will)\b|[.!]?$)"#)

    /// "… talking only about mechanical energy, which we've defined as the sum of kinetic energy
    /// and potential energy." → "What is mechanical energy?"; "… what we called uniform circular
    /// motion, which is defined by the condition that …" → "What defines uniform circular
    /// motion?": the term is the words before the clause back to a function word or a naming verb.
    static func relativeSpokenDefinition(in sentence: String) -> Fact? {
        guard sentence.contains(" defined "), sentence.contains("which") else { return nil }
        let ns = sentence as NSString
        guard let match = relativeSpokenPattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { return nil }
        let before = ns.substring(with: match.range(withName: "before")).split(separator: " ").map(String.init)
        var term: [String] = []
        for word in before.reversed() {
            let folded = WordTokenizer.fold(word)
            if (folded != "of" && CardGrounding.functionWords.contains(folded)) || ["call", "called", "calls", "concept", "notion", "idea", "quantity", "introduce", "define"].contains(folded)
                || word.first?.isLowercase != true || term.count == 4 { break }
            term.insert(word, at: 0)
        }
        while term.first == "of" { term.removeFirst() }
        let how = ns.substring(with: match.range(withName: "how"))
        let definiens = ns.substring(with: match.range(withName: "definiens")).trimmingCharacters(in: .whitespaces)
        let folded = term.map(WordTokenizer.fold)
        let words = WordTokenizer.words(definiens).map(WordTokenizer.fold)
        guard !term.isEmpty, term.last != "of", !folded.contains(where: { particulars.contains($0) || CardChecks.contextWords.contains($0) }),
              !(folded.count == 1 && CardChecks.genericHeads.contains(folded[0])), !SymbolLabel.isLabel(term.joined(separator: " ")),
              (3...30).contains(words.count), let end = words.last, !CardChecks.danglingWords.contains(end),
              StandaloneSentence.pointing(definiens) == nil, CardChecks.spokenTo(definiens) == nil, !particular(definiens) else { return nil }
        let name = term.joined(separator: " ")
        let front = how == "by" ? "What defines \(name)?" : "What is \(name)?"
        return Fact(shape: .relativeDefinition, type: .basic, front: front, back: definiens.prefix(1).uppercased() + definiens.dropFirst())
    }

    // MARK: What a thing is an example of

    private static let examplePattern = try! NSRegularExpression(
        pattern: #"^(?:(?:The|A|An) )?(?<thing>[\p{L}][\p{L}-]*(?: [\p{L}-]+){0,3}) (?:is|are) (?:(?:a|an|one) )?(?:(?:good|classic|typical|common|simple|important|famous|well-known) )?(?:example|instance)s? of (?<kind>(?:a |an )?[\p{L}][\p{L}-]*(?: [\p{L}-]+){0,5}?)(?:[.!]$|, | (?:that|which|where|because|since|in which|as)\b)"#)

    /// "Sentiment analysis is an example of sequence classification." → "Sentiment analysis is
    /// an example of what?" → "Sequence classification". The thing names itself (no pointer,
    /// pronoun or discourse word), and the kind is a whole phrase.
    static func exampleOf(in sentence: String) -> Fact? {
        guard sentence.contains(" of "), sentence.contains("xample") || sentence.contains("nstance") else { return nil }
        let ns = sentence as NSString
        guard let match = examplePattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { return nil }
        let thing = ns.substring(with: match.range(withName: "thing"))
        let kind = ns.substring(with: match.range(withName: "kind"))
        let thingWords = WordTokenizer.words(thing), kindWords = WordTokenizer.words(kind)
        guard let last = kindWords.last, let thingLast = thingWords.last, !nameless(thingWords), !nameless(kindWords),
              !CardChecks.danglingWords.contains(last), !CardChecks.danglingWords.contains(thingLast),
              !SymbolLabel.isLabel(thing), CardChecks.spokenTo(sentence) == nil else { return nil }
        // The sentence's own words up to the kind: its casing and article stay as the source has them.
        let asked = ns.substring(to: match.range(withName: "kind").location)
        return Fact(shape: .exampleOf, type: .basic, front: asked + "what?", back: kind.prefix(1).uppercased() + kind.dropFirst())
    }

    /// Words that name nothing out of their sentence: a pointer, a pronoun, a discourse word, a vague head.
    private static func nameless(_ words: [String]) -> Bool {
        words.contains { StandaloneSentence.pointers.contains($0) || CardChecks.contextWords.contains($0) }
            || words.first.map { StandaloneSentence.openingPointers.contains($0) || CardChecks.discourseWords.contains($0)
                || CardChecks.openers.contains($0) || ["one", "another", "other", "each", "all", "some", "we", "you", "i", "both"].contains($0) } == true
            || (words.count == 1 && CardChecks.genericHeads.contains(words[0]))
    }

    // MARK: An abbreviation's expansion

    private static let abbreviationPattern = try! NSRegularExpression(
        pattern: #"(?:, or | \()(?<short>[A-Z][A-Z0-9]{1,6}s?)(?=\)|[,.;:!?]| |$)"#)

    /// "Masked Language Modeling, or MLM" and "natural language processing (NLP)" → "What does
    /// MLM stand for?" → "Masked Language Modeling": the words before the abbreviation whose
    /// initials spell it ("of", "and", "the" between them skipped).
    static func abbreviation(in sentence: String) -> Fact? {
        guard sentence.contains(", or ") || sentence.contains(" (") else { return nil }
        let ns = sentence as NSString
        for match in abbreviationPattern.matches(in: sentence, range: NSRange(location: 0, length: ns.length)) {
            var short = ns.substring(with: match.range(withName: "short"))
            if short.hasSuffix("s"), short.dropLast().allSatisfy(\.isUppercase) { short.removeLast() }
            let letters = short.filter(\.isLetter).lowercased().map { $0 }
            guard letters.count >= 2, short.allSatisfy({ $0.isLetter }) else { continue }
            let before = ns.substring(to: match.range.location)
            let words = before.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",;:“”\"")) }
            var taken: [String] = []
            var needed = letters
            for word in words.reversed() {
                guard let last = needed.last else { break }
                let folded = word.lowercased()
                if ["of", "and", "the", "for", "in", "on", "to"].contains(folded), !taken.isEmpty { taken.append(word); continue }
                guard folded.first == last, word.allSatisfy({ $0.isLetter || $0 == "-" }) else { break }
                taken.append(word)
                needed.removeLast()
            }
            guard needed.isEmpty, let opening = taken.last, !["of", "and", "the", "for", "in", "on", "to"].contains(opening.lowercased()) else { continue }
            let expansion = taken.reversed().joined(separator: " ")
            // "Masked language modeling": a phrase, not one word spelled out ("Xcm").
            guard WordTokenizer.words(expansion).count >= 2, expansion.lowercased() != short.lowercased() else { continue }
            return Fact(shape: .abbreviation, type: .basic, front: "What does \(short) stand for?",
                        back: expansion.prefix(1).uppercased() + expansion.dropFirst())
        }
        return nil
    }

    // MARK: The year of an event

    private static let yearPattern = try! NSRegularExpression(
        pattern: #"(?<=\b(?i:in|around|by|of|from|since|until|circa|about) )(?<year>1[0-9]{3}|20[0-9]{2})\b(?![–-]|\s*(?:BCE|CE|BC|AD)?\s*[–-])"#)

    /// "The Catholic Church issued the Index of Forbidden Books in 1559." → "The Catholic Church
    /// issued the Index of Forbidden Books in {{c1::1559}}.": a sentence standing alone that
    /// dates one event (one year, not a life's span), opening with the name of who or what acted.
    static func dated(in sentence: String) -> Fact? {
        guard sentence.contains(where: \.isNumber) else { return nil }
        let ns = sentence as NSString
        let matches = yearPattern.matches(in: sentence, range: NSRange(location: 0, length: ns.length))
        guard matches.count == 1, let match = matches.first,
              // ("Kant (1724–1804) …": a life's span in brackets is no event.)
              !sentence.contains("("),
              (6...35).contains(WordTokenizer.words(sentence).count), sentence.last.map({ ".!".contains($0) }) == true,
              sentence.first?.isUppercase == true, StandaloneSentence.dependence(sentence) == nil, CardChecks.spokenTo(sentence) == nil,
              let first = WordTokenizer.words(sentence).first, !CardChecks.openers.contains(first), !CardChecks.discourseWords.contains(first)
        else { return nil }
        // Only one number: a sentence of several figures asks which one is meant.
        let numbers = sentence.split(whereSeparator: { !$0.isNumber }).count
        guard numbers == 1 else { return nil }
        let year = ns.substring(with: match.range(withName: "year"))
        return Fact(shape: .dated, type: .cloze, front: ns.replacingCharacters(in: match.range(withName: "year"), with: "{{c1::\(year)}}"), back: "")
    }
}
