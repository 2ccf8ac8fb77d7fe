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
    static func isAppositiveDefinition(_ sentence: String) -> Bool {
        sentence.range(of: #"^(?:The |A |An )?[^,(]{1,50}(?:,? (?:or|also called|also known as) [^,]{2,50},| \([^)]{1,40}\)) (?:is|are|refers? to) "#,
                       options: .regularExpression) != nil
    }

    /// "X is a/an/the …", "X refers to …", "X means …", "X is defined as …", "… is called X".
    static func isDefiningClause(_ sentence: String, term: String) -> Bool {
        let words = sentence.split(separator: " ").map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        let termWords = term.split(separator: " ").map { $0.lowercased() }
        guard let at = (0..<max(0, words.count - termWords.count + 1)).first(where: { Array(words[$0..<($0 + termWords.count)]) == termWords }) else { return false }
        // "… called X", "… called the X", "… known as X".
        var before = at - 1
        if before >= 0, ["a", "an", "the"].contains(words[before]) { before -= 1 }
        if before >= 0, ["called", "termed", "named", "known", "as"].contains(words[before]) {
            // "Louis the Sixteenth called the Estates-General": a person calling, not a name given.
            let original = sentence.split(separator: " ")
            return before == 0 || original.count != words.count || original[before - 1].first?.isUppercase != true
        }
        let after = at + termWords.count
        guard after + 1 < words.count else { return false }
        switch words[after] {
        case "is": return ["a", "an", "the", "defined", "called", "one"].contains(words[after + 1])
        // "Chloroplasts are organelles bounded by …": a plural class needs no article.
        case "are": return ["a", "an", "the", "defined", "called", "one"].contains(words[after + 1])
            || !(functionWords.contains(words[after + 1]) || discourseWords.contains(words[after + 1]) || words[after + 1].hasSuffix("ly"))
        case "refers", "refer", "means", "denotes": return true
        default: return false
        }
    }
}
