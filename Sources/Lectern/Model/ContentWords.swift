/// The words of a text as the offline methods read them: its surface words, and the function
/// words (English, and a lecture's fillers) that carry no subject. Shared by the extractive
/// summaries and the curriculum's key phrases, terms, objectives and topic similarity.
enum ContentWords {
    /// Letter-and-digit runs as written (keeps "ATP" and "Calvin").
    static func surface(_ text: String) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    static let stopwords: Set<String> = [
        "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
        "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
        "does", "doing", "down", "during", "each", "either", "else", "even", "every", "few", "for", "from", "further",
        "get", "gets", "got", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "however",
        "i", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "like", "made", "make", "makes", "many",
        "may", "me", "might", "more", "most", "much", "must", "my", "no", "nor", "not", "now", "of", "off", "often", "on",
        "once", "one", "only", "or", "other", "our", "out", "over", "own", "same", "she", "should", "so", "some", "such",
        "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through", "thus",
        "to", "too", "two", "under", "until", "up", "us", "use", "used", "uses", "using", "very", "was", "way", "we",
        "well", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "why", "will", "with",
        "within", "without", "would", "yet", "you", "your", "okay", "um", "uh", "yeah", "so", "going", "know", "say",
        "said", "see", "think", "want", "right", "really", "thing", "things", "lot", "kind", "actually", "first", "new",
        "called", "keeps", "keep", "gives", "give", "takes", "take", "means", "mean", "put", "next", "time", "back",
    ]

    /// Prepositions and subordinators a term or a named subject does not open on ("during", "when",
    /// "using"): shared by key-term extraction, objectives and the spoken reading of summaries.
    static let prepositions: Set<String> = [
        "during", "in", "on", "at", "for", "after", "before", "inside", "within", "without", "under", "over", "from",
        "with", "by", "to", "into", "about", "of", "through", "between", "among", "since", "until", "while", "although", "though",
        "when", "whenever", "where", "if", "because", "so", "then", "understanding", "knowing", "using", "given", "unlike", "like", "as", "once", "even", "still",
    ]

    /// Words that tie a subject to its passage: "length of something", "internal forces now"
    /// (a card's subject, a formula's name).
    static let contextWords: Set<String> = [
        "this", "that", "these", "those", "something", "someone", "now", "here", "there", "it", "its", "above", "below",
        "following", "same", "such", "aforementioned", "former", "latter",
    ]
}
