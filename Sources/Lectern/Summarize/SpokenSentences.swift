import Foundation

/// A lecture's sentences as a reader can take them: what a transcript states, without the talk
/// around it. Speech carries fillers ("um", "you know"), openers that only keep it going ("So",
/// "And now", "OK,"), false starts broken off with "--", remarks to the audience and the board
/// ("let's", "you see", "over here", "draw"), the lecturer's plan and working ("We'll choose our
/// polar coordinates", "Remember, …"), and derivations read aloud ("Tb minus Ta equals M a"); a
/// summary wants the statements: what is defined, what a law says, what follows. The
/// lecture's announcement of its subject ("Today we'd like to discuss tension in a rope") is
/// kept as a statement about the lecture ("The lecture discusses tension in a rope.").
enum SpokenSentences {
    /// How strictly a lecture's sentences are read, strictest first: a topic's summary takes the
    /// strictest reading that leaves it enough sentences.
    enum Reading {
        /// What the lecture teaches, stated on its own: none of the `statements` that works at the
        /// board in the first person plural ("We'll choose our polar coordinates", "We have the
        /// normal force"), points back ("Remember, …", "as before") or opens on a pronoun whose
        /// antecedent was said before ("It", "They", "That"). A definition said as "we call" or
        /// "we define" stays.
        case taught
        /// Whole statements that neither address the audience, point at the board nor read a
        /// derivation aloud.
        case statements
        /// Every whole statement without fillers and openers, except a derivation read aloud
        /// (what a short lecture is summarised from when too few sentences pass the others).
        case spoken
    }

    /// The paragraph's sentences that read as written statements, cleaned, in order; "" when
    /// none does. An announcement without "today", "in this video" and the like is taken only
    /// from the paragraph's first `opening` sentences (a lecture's opening; 0 for a later part).
    static func written(_ paragraph: String, reading: Reading = .statements, opening: Int = 3) -> String {
        let text = TextCleanup.collapseWhitespace(paragraph.replacingOccurrences(of: #"<[^>]{1,20}>"#, with: "", options: .regularExpression))
        return SentenceSplitter.split(text, symbols: true).enumerated().compactMap { index, sentence in
            written(sentence: sentence.text, reading: reading, opening: index < opening, whole: false)
        }.joined(separator: " ")
    }

    /// One spoken sentence as a written statement, or nil when it is not one; `opening` where it
    /// is among the lecture's first sentences. `whole`: a sentence put before the learner on its
    /// own (a summary's, after its lead) is neither one the speaker corrected halfway, a line of an
    /// example's working nor one pointing at what is shown (`correctsItself`, `narratesTheWorking`,
    /// `shownPhrases`); a paragraph read for the extractive method keeps them, as its reading
    /// decides how strictly the lecture is read.
    static func written(sentence raw: String, reading: Reading = .statements, opening: Bool = true, whole: Bool = true) -> String? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        // A sound ("(chalk tapping)", "[MUSIC]") and a caption's speaker dash ("- Today we…").
        text = text.replacingOccurrences(of: #"^[\(\[][A-Za-z ]{2,30}[\)\]]\s*|\s*\[[A-Z ]{2,30}\]"#, with: "", options: .regularExpression)
        while let first = text.first, "-–—".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        // A false start is broken off ("if we had a rope and say we were pulling-- here's…"):
        // the sentence has no one grammar.
        if text.contains("--") || text.contains("—") { return nil }
        guard let last = text.last, ".!".contains(last) else { return nil }
        text = text.replacingOccurrences(of: #"(?i)(,\s*)?\b(um+|uh+|erm|er|ah)\b(\s*,)?"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(?i),?\s*\b(you know|I mean)\b\s*,?"#, with: ",", options: .regularExpression)
        text = TextCleanup.collapseWhitespace(text.replacingOccurrences(of: " ,", with: ","))
        // Openers that only keep the talk going: "And so now, …", "OK, so …", "Well, …".
        while let opener = text.range(of: #"^(?i)(and|so|now|well|ok|okay|alright|all right|then|but)\b,?\s+|^(?i)right,\s+"#,
                                         options: .regularExpression) {
            text.removeSubrange(opener)
        }
        while let first = text.first, ",;".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        // "We know that the initial momentum equals the final momentum", "Remember, pivot forces
        // have no torque": the statement is what follows the lead.
        if let first = text.first, "WwRrNnKkIi".contains(first) {
            let lower = text.prefix(24).lowercased()
            if let lead = statementLeads.first(where: { lower.hasPrefix($0) }) {
                let rest = text.dropFirst(lead.count)
                text = rest.prefix(1).uppercased() + rest.dropFirst()
            }
        }
        guard !text.isEmpty else { return nil }
        if let announced = announcement(text, opening: opening) { return announced }
        var words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "’" }).map { $0.lowercased() }
        // A line of working and a prompt ("Consider g of x", "Imagine the initial state") are never a statement.
        if isDerivation(words) { return nil }
        if let first = text.split(whereSeparator: { !$0.isLetter }).first, ExtractiveSummarizer.imperatives.contains(String(first))
            || first == "Keep" || first == "Notice" {
            return nil
        }
        // ("All right.", "Good." and the like say nothing.)
        guard words.count >= (reading == .spoken ? 6 : 4) else { return nil }
        guard reading != .spoken else { return text.prefix(1).uppercased() + text.dropFirst() }
        if words.contains(where: { addressing.contains($0) || boardWords.contains($0) }) { return nil }
        if ExtractiveSummarizer.leansOnPrevious(text) { return nil }
        if whole {
            if correctsItself(text) || narratesTheWorking(words) { return nil }
            let spaced = " " + words.joined(separator: " ") + " "
            if shownPhrases.contains(where: { spaced.contains(" \($0) ") }) { return nil }
        }
        if reading == .taught {
            // "Our instantaneous velocity is the time derivative of the position" says what the
            // velocity is: written, "The instantaneous velocity is …". "our" elsewhere is the working's.
            if words.first == "our", words.count > 3, let space = text.firstIndex(of: " ") {
                text = "The" + text[space...]
                words[0] = "the"
            }
            if worksAtTheBoard(words) { return nil }
        }
        // Phrases of several words, looked for only where their first word is.
        if words.contains(where: { boardPhraseStarts.contains($0) }) {
            let lower = " " + words.joined(separator: " ") + " "
            // ("… is defined exactly like this: …" points forward, at what the sentence goes on to say.)
            if boardPhrases.contains(where: { lower.contains(" \($0) ") && !($0 == "like this" && text.contains("like this:")) }) { return nil }
        }
        // "this", "these" and "those" point at the board unless at what the sentence names ("this
        // lecture") or goes on to say ("… says exactly this: …").
        if words.contains(where: { demonstratives.contains($0) }) {
            let tokens = text.split(separator: " ")
            for (index, token) in tokens.enumerated() {
                let word = token.lowercased().trimmingCharacters(in: .punctuationCharacters)
                guard demonstratives.contains(word), !token.hasSuffix(":") else { continue }
                let next = index + 1 < tokens.count ? tokens[index + 1].lowercased().trimmingCharacters(in: .punctuationCharacters) : ""
                if !token.last!.isLetter || !ownSubjects.contains(next) { return nil }
            }
        }
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// Words that speak to the audience or of the speaker: the sentence is about the talk.
    static let addressing: Set<String> = [
        "i", "i'm", "i'll", "i've", "i'd", "i’m", "i’ll", "me", "my", "you", "you're", "you'll", "you've", "your", "you’re", "yourself",
        "let's", "let’s", "let", "okay", "ok", "guys", "gonna", "wanna", "hmm", "yeah", "hello", "hi", "welcome",
    ]

    /// Words that point at the board or the picture being drawn.
    static let boardWords: Set<String> = ["here", "here's", "here’s", "draw", "drew", "drawn", "drawing"]

    /// Phrases that point at the board or the picture, or back at what was said.
    static let boardPhrases = [
        "there's our", "over there", "this guy", "this side", "that side", "this picture", "this diagram", "this figure",
        "the board", "as i said", "we said", "we saw", "we just", "we did", "last time", "next time",
        "this one", "that one", "these guys", "like this", "like that", "so far", "on the left", "on the right", "et cetera",
        "is going up", "is going down", "is going outwards", "is going outward", "is going inwards", "is going inward", "is pointing up",
        "is pointing down", "is pointing outwards", "is pointing inwards", "right-hand side", "left-hand side", "this term", "that term",
    ]

    /// What else points at the board in a sentence put before the learner alone ("The second
    /// term is due to …", "The first picture will have …"); a paragraph read for the extractive
    /// method keeps it.
    static let shownPhrases = [
        "the first term", "the second term", "the third term", "the last term", "the final term", "the other term", "the figure", "the screen",
        "picture", "pictures",
    ]

    /// The first words of `boardPhrases`: a sentence with none of them holds none of the phrases.
    static let boardPhraseStarts = Set(boardPhrases.map { String($0.prefix { $0 != " " }) })

    /// The lecturer and the class as the subject working a problem ("we'll", "our"), and words
    /// that point back at what was said before ("remember", "recall").
    static let workingWords: Set<String> = [
        "we", "we'll", "we're", "we've", "we'd", "we’ll", "we’re", "we’ve", "we’d", "our", "ours", "ourselves",
        "remember", "recall", "recalling", "previously", "earlier",
    ]

    /// Leads before a statement that only say the speaker knows or recalls it.
    static let statementLeads = [
        "we know that ", "we see that ", "we find that ", "we found that ", "we get that ", "we saw that ", "we have seen that ",
        "it turns out that ", "remember that ", "remember, ", "recall that ", "note that ", "notice that ", "keep in mind that ",
        "in summary, we see that ", "in summary, ",
    ]

    /// What may follow "we" in a sentence that defines: "what we call momentum", "we define the torque as".
    static let definingVerbs: Set<String> = ["call", "define", "refer", "denote", "say", "mean"]

    /// A sentence of the lecturer's plan or working, or one that points back at what was said:
    /// "We'll choose our polar coordinates", "Remember, pivot forces have no torque", "as before".
    /// Not a definition said in the first person ("What we define as the tension … is …").
    static func worksAtTheBoard(_ words: [String]) -> Bool {
        for (index, word) in words.enumerated() where workingWords.contains(word) {
            if word == "we", index + 1 < words.count, definingVerbs.contains(words[index + 1]) { continue }
            return true
        }
        // "as before", "just as before", "as we saw" (the last caught above).
        if let before = words.firstIndex(of: "before"), before > 0, words[before - 1] == "as" { return true }
        return false
    }

    static let demonstratives: Set<String> = ["this", "these", "those"]

    /// Modal verbs: two in one clause ("There could be static friction may act.") are a sentence
    /// the speaker corrected halfway.
    static let modals: Set<String> = ["can", "could", "may", "might", "will", "would", "shall", "should", "must"]

    /// Words that join a second clause (or its verb) to a first.
    static let clauseJoints: Set<String> = [
        "and", "or", "but", "that", "which", "who", "whom", "whose", "if", "when", "where", "whether", "because", "so", "than", "then",
        "while", "unless", "until", "since", "as", "what", "how", "why", "once", "before", "after", "nor",
    ]

    /// A spoken sentence that starts over without a break: two modal verbs in one clause ("There
    /// could be static friction may act."), or a copula that runs into a clause ("Torque is if
    /// there's a force …"). Where a joint or a comma separates them, they are two clauses. And an
    /// answer to a question just asked, a "Because …" without a main clause ("Because when the
    /// engine turns off, the rocket …"; not "Because it speeds up, there is …").
    static func correctsItself(_ text: String) -> Bool {
        let tokens = text.split(separator: " ")
        if tokens.first == "Because", !text.contains(",") || tokens.count > 1 && ["when", "if", "as", "since", "that", "of"].contains(tokens[1].lowercased()) {
            return true
        }
        var modal: Int?
        for (index, token) in tokens.enumerated() {
            let word = token.lowercased().trimmingCharacters(in: .punctuationCharacters)
            if clauseJoints.contains(word) || token.hasSuffix(",") || token.hasSuffix(";") || token.hasSuffix(":") { modal = nil }
            if modals.contains(word) {
                if let first = modal, index - first > 1 { return true }
                modal = token.hasSuffix(",") ? nil : index
            }
            if copulas.contains(word), !token.hasSuffix(","), index + 1 < tokens.count,
               ["if", "when", "because"].contains(tokens[index + 1].lowercased()), index > 0 { return true }
        }
        return false
    }

    /// A line of a worked example's working: one about its symbols ("as x goes to infinity", "the
    /// units of alpha", "the k hat"), unless it names the definition or law it states, a given it
    /// introduces ("a height h", "of mass m") or an axis or component ("the x component of
    /// velocity"); or one telling what happened in it ("There was no initial …", "… was just
    /// doing …").
    static func narratesTheWorking(_ words: [String]) -> Bool {
        guard words.count > 1 else { return false }
        if words[0] == "there", ["was", "were"].contains(words[1]) { return true }
        for (index, word) in words.enumerated().dropLast() where (word == "was" || word == "were") {
            let next = words[index + 1] == "just" || words[index + 1] == "still" ? index + 2 : index + 1
            if next < words.count, words[next].hasSuffix("ing"), words[next].count > 4 { return true }
        }
        let symbol = words.indices.contains { index in
            let word = words[index]
            guard word.count == 1 && word != "a" && word != "i" && word.first!.isLetter || spokenSymbols.contains(word) else { return false }
            if index + 1 < words.count, ["axis", "component", "components"].contains(words[index + 1]) { return false }
            // ("a height h", "of mass m": the given named, by a noun before it.)
            guard index > 0 else { return true }
            let before = words[index - 1]
            return before.count < 3 || ContentWords.stopwords.contains(before) || ContentWords.prepositions.contains(before) || spokenOperators.contains(before)
                || spokenSymbols.contains(before) || ["goes", "go", "going", "have", "has", "is", "are", "sum"].contains(before)
        }
        return symbol && !words.contains { ["law", "laws", "defined", "define", "definition", "principle", "theorem", "called"].contains($0) }
    }

    /// What "this", "these" and "those" may point at in a statement that stands alone; in a
    /// lecture any other ("at this location", "this wheel", "in this case") points at the board
    /// or at what was just said.
    static let ownSubjects: Set<String> = ["lecture", "lectures", "course", "video", "videos", "lesson", "chapter", "week", "series", "section", "class", "unit"]

    /// Operations read aloud: a line of working says several, or one among symbols.
    static let spokenOperators: Set<String> = ["equals", "equal", "minus", "plus", "times", "squared", "cubed", "divided", "prime", "sub"]

    /// Short words of English that are not symbols.
    static let shortWords: Set<String> = [
        "a", "i", "is", "of", "in", "at", "on", "to", "be", "we", "it", "as", "or", "if", "so", "an", "by", "up", "do", "go", "no", "us",
        "am", "he", "my", "me", "oh", "ok", "ah",
    ]

    /// A line of a derivation read aloud: operators between symbols ("Tb minus Ta equals M a",
    /// "P2 is equal to P1"), unless it names the law or definition it states.
    static func isDerivation(_ words: [String]) -> Bool {
        let operators = words.filter { spokenOperators.contains($0) }.count
        let symbols = words.filter { word in
            word.count <= 2 && !shortWords.contains(word) || spokenSymbols.contains(word) || isIndexedSymbol(word)
        }.count
        // A short line with symbols is a step of working too ("V2 initial is 0", "Icm is mR
        // squared", "In the theta hat direction"), and so is a line about a symbol ("A2, though, …").
        if words.count <= 8 && symbols >= 2 || words.count <= 6 && operators >= 1 && symbols >= 1 { return true }
        if let first = words.first, isIndexedSymbol(first) { return true }
        guard operators >= 2 || (operators >= 1 && symbols >= 2) || symbols >= 4 else { return false }
        let named = words.contains { ["law", "laws", "defined", "definition", "principle", "theorem", "called"].contains($0) }
        return !(named && operators <= 2)
    }

    /// Symbols said as words.
    static let spokenSymbols: Set<String> = SymbolLabel.greekLetters.union(["hat"])

    /// One or two letters and a number: "m1", "v2", "t12".
    static func isIndexedSymbol(_ word: String) -> Bool {
        var letters = 0, digits = 0
        for byte in word.utf8 {
            if (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) {
                guard digits == 0 else { return false }
                letters += 1
            } else if (0x30...0x39).contains(byte) {
                digits += 1
            } else {
                return false
            }
        }
        return (1...2).contains(letters) && digits > 0
    }

    /// Verbs a lecture announces its subject with, and how a statement about it says them.
    static let announcingVerbs: [(spoken: String, written: String)] = [
        ("discuss", "discusses"), ("talk about", "talks about"), ("look at", "looks at"), ("introduce", "introduces"),
        ("study", "studies"), ("analyze", "analyzes"), ("analyse", "analyses"), ("derive", "derives"), ("explore", "explores"),
        ("describe", "describes"), ("explain", "explains"), ("define", "defines"), ("examine", "examines"),
        ("investigate", "investigates"), ("learn about", "covers"), ("cover", "covers"), ("review", "reviews"), ("consider", "considers"),
    ]

    /// Words an announced subject that points at the board opens on.
    static let pointers: Set<String> = ["this", "these", "that", "those"]

    static let copulas: Set<String> = ["is", "are", "was", "were", "isn't", "aren't"]

    /// Announcing verbs that also name a step of working ("look at the combined block").
    static let stepVerbs: Set<String> = ["look at", "consider", "derive", "analyze", "analyse", "examine", "describe", "explain"]

    private static let announcing: NSRegularExpression = {
        let verbs = announcingVerbs.map { NSRegularExpression.escapedPattern(for: $0.spoken) }.joined(separator: "|")
        let who = #"(?:we(?:'d| would|’d)?(?: now| also)? like to|we(?:'ll| will|’ll)|we(?:'re| are|’re) going to|we want to|i(?:'d| would|’d)(?: now| also)? like to|i(?:'m| am|’m) going to|i want to|i(?:'ll| will|’ll)|let(?:'s|’s| us))"#
        let when = #"(?:(today|this week|in this (?:video|lecture|lesson|section|class|part|week))|here|first|next|now),?\s+"#
        return try! NSRegularExpression(pattern: "^(?:" + when + ")?" + who + #"\s+(?:briefly\s+)?("# + verbs + #")\s+(.+)$"#, options: [.caseInsensitive])
    }()

    /// "Today, we'd like to discuss tension in a rope." → "The lecture discusses tension in a rope."
    /// An announcement without "today", "in this video" and the like is taken only where
    /// `opening` (among the lecture's first sentences): later, "First we'll introduce an angle
    /// theta" is a step at the board.
    static func announcement(_ text: String, opening: Bool = true) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = announcing.firstMatch(in: text, range: range),
              let verbRange = Range(match.range(at: 2), in: text), let restRange = Range(match.range(at: 3), in: text) else { return nil }
        let verb = text[verbRange].lowercased()
        // "Let's look at the work first" is a step of a worked problem, not the lecture's subject:
        // a step's verbs announce only after "today", "in this video" and the like.
        let dated = match.range(at: 1).location != NSNotFound
        if !dated && (!opening || stepVerbs.contains(verb)) { return nil }
        let rest = String(text[restRange])
        let restWords = rest.split(whereSeparator: { !$0.isLetter && $0 != "'" }).map { $0.lowercased() }
        // "some dummy variables there", "this one": a pointer at the board names no subject.
        if let first = restWords.first, pointers.contains(first) || restWords.contains("there") { return nil }
        // "kinetic energy of rotation and properties of that rigid body": a pointer later in it too.
        for (index, word) in restWords.enumerated().dropFirst() where pointers.contains(word) {
            if word != "that" || ContentWords.prepositions.contains(restWords[index - 1]) { return nil }
        }
        let spaced = " " + restWords.joined(separator: " ") + " "
        // ("The lecture talks about the initial energy is all potential": the rest has its own verb.)
        // ("The lecture talks about in the calculation of angular momentum": what it talks about
        // is not named before a preposition.)
        guard restWords.count >= 2, !ContentWords.prepositions.contains(restWords[0]), !restWords.contains(where: { addressing.contains($0) || boardWords.contains($0) || workingWords.contains($0) || copulas.contains($0) }),
              !boardPhrases.contains(where: { spaced.contains(" \($0) ") }),
              let written = announcingVerbs.first(where: { $0.spoken == verb })?.written else { return nil }
        return "The lecture \(written) \(rest)"
    }
}
