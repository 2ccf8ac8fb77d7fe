import Foundation

/// Whether a sentence defines a term ("X is a …", "X refers to …", "… is called X", "X, or Y,
/// is …"). Sentence analysis that the card checks and the curriculum's key terms both need, so
/// it lives below both: neither Cards nor Curriculum reaches into the other for it.
enum DefiningSentence {
    /// Function words that carry no claim (the search stopwords and a few more).
    static let functionWords: Set<String> = SearchQuery.stopwords.union([
        "its", "their", "they", "them", "there", "these", "those", "than", "then", "but", "not", "no", "can", "could",
        "would", "should", "will", "may", "might", "has", "have", "had", "been", "being", "were", "into", "also",
        "such", "other", "some", "any", "all", "each", "one", "more", "most", "very", "so", "if", "about", "he", "she",
        "his", "her", "we", "you", "our", "i",
    ])

    /// Words that start a clause rather than name a thing: pronouns, adverbs, discourse words.
    static let discourseWords: Set<String> = [
        "this", "that", "it", "these", "those", "there", "he", "she", "they", "what", "which", "who", "one", "here",
        "such", "each", "another", "i", "we", "you", "his", "her", "their", "its", "our", "my", "your", "all", "some",
        "now", "notice", "note", "rather", "yet", "however", "thus", "so", "then", "also", "still", "instead",
        "therefore", "hence", "moreover", "indeed", "finally", "next", "again", "even",
        "just", "only", "well", "okay", "ok", "actually", "basically", "really", "similarly", "likewise", "otherwise",
        "meanwhile", "remember", "recall", "let", "suppose", "imagine", "consider", "today", "but", "and", "or", "if", "since",
        "when", "while", "because", "although", "though", "perhaps", "maybe", "surely", "clearly", "of", "obviously",
        "certainly", "in", "on", "for", "to", "by", "with", "as", "at", "from", "after", "before", "other", "others",
        "both", "many", "most", "much", "more", "less", "few", "not", "no", "yes", "whatever", "whoever", "anything",
        "everything", "something", "nothing", "someone", "everyone", "anyone",
    ]

    /// "Entropy, or disorder, is …", "ATP (adenosine triphosphate) is …".
    /// ("Immanuel Kant (1724–1804) is one of the most important figures …" judges, it does not define.)
    static func isAppositiveDefinition(_ sentence: String) -> Bool {
        guard let match = sentence.range(of: #"^(?:The |A |An )?[^,(]{1,50}(?:,? (?:or|also called|also known as) [^,]{2,50},| \([^)]{1,40}\)) (?:is|are|refers? to) "#,
                                         options: .regularExpression) else { return false }
        return !isJudgement(WordTokenizer.words(String(sentence[match.upperBound...])))
    }

    /// "X is a/an/the …", "X refers to …", "X means …", "X is defined as …", "… is called X",
    /// "… is X if …" (a property defined by its condition).
    static func isDefiningClause(_ sentence: String, term: String) -> Bool {
        let words = sentence.split(separator: " ").map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        let termWords = term.split(separator: " ").map { $0.lowercased() }
        guard let at = (0..<max(0, words.count - termWords.count + 1)).first(where: { Array(words[$0..<($0 + termWords.count)]) == termWords }) else { return false }
        // "… called X", "… called the X", "… known as X".
        var before = at - 1
        if before >= 0, ["a", "an", "the"].contains(words[before]) { before -= 1 }
        // "prominent Scholastics such as Thomas Aquinas" names an instance; only "known as X"
        // and "referred to as X" give a name.
        if before >= 1, words[before] == "as", words[before - 1] == "known" || (before >= 2 && words[before - 1] == "to" && words[before - 2] == "referred") {
            return true
        }
        if before >= 0, ["called", "termed", "named"].contains(words[before]) {
            // "Louis the Sixteenth called the Estates-General": a person calling, not a name given.
            let original = sentence.split(separator: " ")
            return before == 0 || original.count != words.count || original[before - 1].first?.isUppercase != true
        }
        let after = at + termWords.count
        // "A set of beliefs is coherent, or logically consistent, if …": a property's definition.
        if at >= 1, ["is", "are"].contains(words[at - 1]), after < words.count {
            let rest = sentence.lowercased().split(separator: " ").suffix(words.count - after).joined(separator: " ")
            if ["if", "when", "iff"].contains(words[after]) || rest.range(of: #"^(?:, )?or [^,]{2,40}, (?:if|when|iff)\b"#, options: .regularExpression) != nil {
                return true
            }
        }
        guard after + 1 < words.count else { return false }
        // "X is a …" defines X only where X is the subject: the sentence (or a clause after a
        // comma: "In Hindu philosophy, darshana refers to …") opens with it, after an article or
        // "The term"; "… living according to the dao is a kind of natural awareness" does not.
        let original = sentence.split(separator: " ")
        if original.count == words.count {
            var opening = at
            if opening > 0, ["a", "an", "the"].contains(words[opening - 1]) { opening -= 1 }
            if opening > 1, ["term", "word", "name", "concept", "notion"].contains(words[opening - 1]), ["the", "a"].contains(words[opening - 2]) { opening -= 2 }
            guard opening == 0 || original[opening - 1].hasSuffix(",") else { return false }
        }
        let predicate = Array(words[(after + 1)...])
        switch words[after] {
        // "Immanuel Kant is one of the most important figures …" judges X; it does not define it.
        case "is": return ["a", "an", "the", "defined", "called", "one"].contains(words[after + 1]) && !isJudgement(predicate)
        // "Chloroplasts are organelles bounded by …": a plural class needs no article; "The
        // tunnels are large enough …", "Individuals are elected …" describe, they name no class.
        case "are":
            if ["a", "an", "the", "defined", "called", "one"].contains(words[after + 1]) { return !isJudgement(predicate) }
            return namesAPluralClass(predicate)
        // "Social means of gaining knowledge …": the noun "means", not the verb.
        case "means": return !["of", "to", "by", "for"].contains(words[after + 1])
        case "refers", "refer", "denotes": return true
        default: return false
        }
    }

    /// Words that judge or rank a thing rather than say what it is ("an important concept",
    /// "the biggest coal consumer", "a rich source", "one of the most important figures").
    static let judgingWords: Set<String> = [
        "most", "best", "worst", "simplest", "easiest", "hardest", "particularly", "very", "really", "quite", "hotly", "lot", "bit",
        "little", "important", "great", "greatest", "foundational", "rich", "richest", "complex", "difficult", "biggest", "largest",
        "smallest", "strongest", "weakest", "prominent", "common", "major", "famous", "influential", "useful", "powerful",
        "significant", "good", "excellent", "interesting", "popular", "leading", "crucial", "testament", "wonderful",
        "remarkable", "notable", "dominant", "key", "fascinating", "valuable", "essential", "vital", "primary", "main",
    ]

    /// Whether a predicate's words (after the copula) judge rather than define: its first word
    /// after the articles and "one of the" is a judging word.
    static func isJudgement(_ predicate: [String]) -> Bool {
        var words = predicate[...]
        if words.first == "one", words.dropFirst().first == "of" { words = words.dropFirst(2) }
        while let first = words.first, ["a", "an", "the"].contains(first) { words = words.dropFirst() }
        guard let first = words.first else { return false }
        return judgingWords.contains(first)
    }

    /// Adverbs that sit between a subject and its verb ("X often refers to …", "X are sometimes …").
    static let adverbs: Set<String> = [
        "often", "usually", "generally", "typically", "sometimes", "always", "also", "commonly", "simply", "normally",
        "frequently", "actually", "really", "basically", "essentially", "mainly", "mostly", "primarily", "originally",
        "traditionally", "broadly", "loosely", "strictly", "literally", "never", "rarely", "just", "largely", "thus",
        "therefore", "however", "still", "now", "then", "already", "even", "only", "perhaps", "probably", "certainly",
    ]

    /// "are organelles …", "are mental states …": after a plural subject's "are", a plural noun
    /// (or an adjective and one) names the class; an adjective, participle or adverb does not.
    static func namesAPluralClass(_ predicate: [String]) -> Bool {
        func plural(_ word: String) -> Bool {
            word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") && !word.hasSuffix("ous") && !word.hasSuffix("us") && !word.hasSuffix("is")
        }
        func describes(_ word: String) -> Bool {
            functionWords.contains(word) || discourseWords.contains(word) || adverbs.contains(word) || word.hasSuffix("ly")
                || word.hasSuffix("ed") || word.hasSuffix("ing")
        }
        guard let first = predicate.first, !describes(first) else { return false }
        if plural(first) { return true }
        return predicate.count > 1 && plural(predicate[1]) && !describes(predicate[1])
    }
}
