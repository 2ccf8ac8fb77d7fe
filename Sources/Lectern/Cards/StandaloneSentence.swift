import Foundation

/// Whether a sentence can stand on a card without the sentences around it. "These numerical
/// representations are called embeddings", "Another tool that does this …", "… takes this worry
/// seriously": out of its paragraph a learner cannot tell what the sentence is about. The cloze
/// generator skips such sentences and the checks reject clozes made of them, so the two agree.
enum StandaloneSentence {
    /// Words that point at something the sentence does not name, wherever they stand.
    static let pointers: Set<String> = ["this", "these", "those", "former", "latter", "aforementioned", "above", "below"]
    /// Words that point back when they open the sentence ("Another tool …", "Such a view …").
    static let openingPointers: Set<String> = ["that", "another", "such", "it", "its", "they", "their", "he", "she", "his", "her", "them", "him",
                                                // "Moreover, …", "What is being denied here is …": the passage's own thread.
                                                "firstly", "secondly", "finally", "lastly", "moreover", "furthermore", "however",
                                                "additionally", "indeed", "similarly", "conversely", "nevertheless", "nonetheless",
                                                "consequently", "accordingly", "what"]

    /// Why `sentence` needs its neighbours, or nil when it stands alone.
    static func dependence(_ sentence: String) -> String? {
        if let pointing = pointing(sentence) { return pointing }
        // "…; remember that …", "… are distinct, and remember that …": the speaker's aside.
        if sentence.range(of: #"[;,] (?:and |but |so )?(?:remember|note|notice|recall|see)\b"#, options: .regularExpression) != nil {
            return "the sentence holds a second statement"
        }
        if SentenceSplitter.split(sentence).count > 1 { return "the text is several sentences, not one fact" }
        return nil
    }

    /// Words with which a subject opening with "this" says what it points at: a phrase ("This
    /// coupling of …", "This transfer of heat by …") or a clause ("Those who …").
    static let namingLinks: Set<String> = ["of", "between", "by", "from", "to", "with", "through", "in", "on", "who", "that", "which", "whose"]

    /// Nouns that answer something: owned without what they answer, they lean on the passage.
    static let answeringNouns: Set<String> = ["answer", "solution", "response", "reply", "remedy", "cure", "mechanism"]

    /// Why `text` points at what it does not name ("So this special case …"), or nil.
    static func pointing(_ text: String) -> String? {
        // "In this way", "the same way": a manner, not a thing left unnamed.
        let plain = text.replacingOccurrences(of: #"\b(?:[Ii]n )?(?:this|that|the same) way\b"#, with: " ", options: .regularExpression)
        var words = WordTokenizer.words(plain).map(WordTokenizer.fold)
        guard let first = words.first else { return nil }
        if openingPointers.contains(first) || CardChecks.openers.contains(first) {
            return "the sentence opens with “\(first)”: out of context it is ambiguous"
        }
        // "First, a statement is …": a step of the passage's enumeration ("First-order logic" is a term).
        if plain.range(of: #"^(?:First|Second|Third|Fourth|Next|Last),"#, options: .regularExpression) != nil {
            return "the sentence opens with “\(first)”: a step of its passage's list"
        }
        // "This coupling of a proton gradient to ATP synthesis is called …" names what it points at
        // by a phrase or a clause of its own; "These numerical representations are called …" and
        // "This strange and quite surprising behaviour is called …" (words that qualify only) do not,
        // nor does "This view is close to …, where … are known as …": another statement stands
        // before the naming.
        if ["this", "these", "those"].contains(first),
           let naming = plain.range(of: #"^\S+(?: \S+){4,}? (?:is|are) (?:called|known as|termed|named)\b"#, options: .regularExpression) {
            let named = String(plain[naming]).replacingOccurrences(of: #" (?:is|are) (?:called|known as|termed|named)$"#, with: "", options: .regularExpression)
            let subject = WordTokenizer.words(named).map(WordTokenizer.fold)
            if !subject.dropFirst().contains(where: { ["is", "are", "was", "were"].contains($0) }), subject.contains(where: namingLinks.contains) {
                words.removeFirst()
            }
        }
        if let pointer = words.first(where: pointers.contains) {
            return "“\(pointer)” points at something the sentence does not name"
        }
        // "She found her remedy in a plan she called …": a noun that answers something ("answer",
        // "solution", "remedy", "mechanism") owned but not told what it answers leans on what the
        // passage said before ("her solution to the debt crisis" tells it).
        if words.contains(where: answeringNouns.contains), let answering = plain.range(of: #"\b(?:[Hh]is|[Hh]er|[Tt]heir|[Ii]ts) (?:answer|solution|response|reply|remedy|cure|mechanism)\b(?! (?:to|for|of|against)\b)"#, options: .regularExpression) {
            return "“\(plain[answering])” answers what the sentence does not name"
        }
        // "Combining the two parts results in …": a counted definite names things said before
        // ("the two strands of DNA" names them).
        if let counted = plain.range(of: #"\b[Tt]he (?:two|three|four|five|both) [\w-]+s\b(?! of\b)"#, options: .regularExpression) {
            return "“\(plain[counted])” points at things the sentence does not name"
        }
        return nil
    }

    /// Verbs with which a sentence opening with a term says what the term is, holds or does as a
    /// concept ("Virtue ethics focuses on …", "Pluralism asserts …", "Begging the question occurs
    /// when …"); "Intuition operates in other realms …", "Compassion and empathy might …", "The
    /// sage tradition provides …" say something about it or about another thing.
    static let characterisingVerbs: Set<String> = [
        "focuses", "focus", "studies", "study", "asserts", "assert", "holds", "hold", "argues", "argue", "claims", "claim",
        "states", "state", "says", "examines", "examine", "explores", "explore", "concerns", "concern", "deals", "deal",
        "describes", "describe", "seeks", "seek", "aims", "aim", "emphasizes", "emphasises", "emphasize", "emphasise",
        "involves", "involve", "consists", "consist", "comprises", "comprise", "maintains", "maintain", "teaches", "teach",
        "bases", "base", "suggests", "suggest", "proposes", "propose", "denies", "deny", "rejects", "reject", "contends",
        "contend", "posits", "posit", "insists", "insist", "measures", "measure", "represents", "represent", "explains",
        "explain", "investigates", "investigate", "addresses", "address", "analyzes", "analyses", "analyze", "analyse",
        "occurs", "occur", "stipulates", "prescribes", "advocates", "advocate", "recommends", "recommend", "values", "value",
        "favors", "favours", "favor", "favour", "treats", "treat", "regards", "regard", "views", "view", "sees", "see",
        "defines", "define", "distinguishes", "distinguish", "attempts", "attempt", "relies", "rely", "requires", "require",
        "applies", "apply", "uses", "use", "predicts", "predict", "quantifies", "quantify", "converts", "convert",
    ]

    /// Whether `words` (folded) open with `phrase` (after an article) and go on with a verb that
    /// characterises it: the sentence is about the term as a concept.
    static func characterises(_ words: [String], _ phrase: [String]) -> Bool {
        let start = words.first.map { ["the", "a", "an"].contains($0) } == true ? 1 : 0
        guard words.count > start + phrase.count, words[start..<(start + phrase.count)].elementsEqual(phrase) else { return false }
        return characterisingVerbs.contains(words[start + phrase.count])
    }

    /// Heads of a phrase "N of X" that name something else than a part of X: "The problem of
    /// evil is …" is about the problem, "The history of X …" tells a story.
    private static let notParts: Set<String> = [
        "problem", "question", "history", "origin", "origins", "study", "importance", "role", "use", "concept", "notion",
        "idea", "term", "word", "name", "example", "examples", "case", "meaning", "definition",
    ]

    /// Whether `words` (folded) say what a defining part of `phrase` is: "Ruling authority in an
    /// aristocracy is in the hands of …", "The primary focus of cosmological arguments will be on
    /// proving …". A module's Key Terms sentence of this form describes its term without a
    /// defining verb.
    static func describesPart(_ words: [String], _ phrase: [String]) -> Bool {
        let articles: Set<String> = ["the", "a", "an"]
        let start = words.first.map(articles.contains) == true ? 1 : 0
        for length in 1...3 {
            let preposition = start + length
            guard preposition < words.count, ["of", "in"].contains(words[preposition]) else { continue }
            let part = words[start..<preposition]
            guard let head = part.last, !notParts.contains(head),
                  !part.contains(where: { pointers.contains($0) || CardGrounding.functionWords.contains($0) || openingPointers.contains($0) }) else { return false }
            var term = preposition + 1
            if term < words.count, articles.contains(words[term]) { term += 1 }
            guard words.count > term + phrase.count + 1, words[term..<(term + phrase.count)].elementsEqual(phrase) else { return false }
            let verb = words[(term + phrase.count)...]
            return ["is", "are", "lies", "lie", "rests", "rest"].contains(verb.first!) || verb.starts(with: ["will", "be"])
        }
        return false
    }
}
