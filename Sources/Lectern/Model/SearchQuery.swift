/// A search as a user writes it: bare words (any may match, BM25 ranks them), `"quoted
/// phrases"` (a passage must hold the words in that order) and `-word` or `-"a phrase"`
/// (a passage holding it is left out, in every mode). Every part is plain words, lower-cased and
/// folded, so no user input ever reaches FTS5 as syntax.
public struct SearchQuery: Sendable, Equatable {
    /// Bare content words, stopwords and question words dropped unless nothing else is left: what BM25 ranks by.
    var words: [String]
    /// Bare words without stopwords: what is highlighted.
    var shownWords: [String]
    /// Each quoted phrase's words, in order (stopwords kept: they are part of the phrase).
    var phrases: [[String]]
    /// Each excluded word or phrase's words.
    var exclusions: [[String]]
    /// The query without quotes and exclusions: what is embedded for semantic search.
    var text: String

    /// Words that say nothing about the subject ("how does …", "what is the …"): neither ranked
    /// by nor highlighted.
    static let stopwords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "how", "in", "is", "it",
        "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "why", "with",
    ]

    /// Pronouns, auxiliaries and asking verbs of a question: BM25 ranks without them (measured:
    /// bench/results/eval_tuning.md), but they are still highlighted and found in transcripts.
    static let questionWords: Set<String> = [
        "can", "could", "would", "should", "will", "i", "me", "my", "we", "you", "your", "our", "they", "their", "there",
        "its", "he", "she", "his", "her", "them", "if", "so", "than", "then", "but", "into", "about", "did", "has", "have",
        "had", "been", "being", "were", "am", "get", "gets", "just", "also", "explain", "describe", "tell", "mean", "means",
        "happens", "happen", "whose", "whom", "these", "those", "not", "no", "one", "some", "any", "all", "very",
    ]

    public init(parsing query: String) {
        var words: [String] = []
        var phrases: [[String]] = []
        var exclusions: [[String]] = []
        var kept: [String] = []
        let chars = Array(query)
        var index = 0
        while index < chars.count {
            if chars[index].isWhitespace {
                index += 1
                continue
            }
            // A `-` starts an exclusion only at the start of a token and before a word or a quote:
            // "-" alone and "x-ray" are words as before.
            var excluded = false
            if chars[index] == "-", index + 1 < chars.count, chars[index + 1] == "\"" || chars[index + 1].isLetter || chars[index + 1].isNumber {
                excluded = true
                index += 1
            }
            var token = ""
            var quoted = false
            if chars[index] == "\"" {
                // A quote without its partner runs to the end of the query.
                quoted = true
                index += 1
                while index < chars.count, chars[index] != "\"" {
                    token.append(chars[index])
                    index += 1
                }
                index += 1
            } else {
                while index < chars.count, !chars[index].isWhitespace, chars[index] != "\"" {
                    token.append(chars[index])
                    index += 1
                }
            }
            let parts = WordTokenizer.words(token).map(WordTokenizer.fold)
            guard !parts.isEmpty else { continue }
            if excluded {
                exclusions.append(parts)
            } else if quoted {
                phrases.append(parts)
                kept.append(token)
            } else {
                words += parts
                kept.append(token)
            }
        }
        let shown = words.filter { !Self.stopwords.contains($0) }
        let content = shown.filter { !Self.questionWords.contains($0) }
        // Stopwords alone ("the who") are still a search; beside a phrase they add nothing.
        let bare = phrases.isEmpty ? words : []
        var seen = Set<String>()
        self.words = (content.isEmpty ? (shown.isEmpty ? bare : shown) : content).filter { seen.insert($0).inserted }
        seen = []
        shownWords = (shown.isEmpty ? bare : shown).filter { seen.insert($0).inserted }
        var seenPhrases = Set<[String]>()
        self.phrases = phrases.filter { seenPhrases.insert($0).inserted }
        self.exclusions = exclusions
        text = kept.joined(separator: " ")
    }

    /// The same search with its phrases' words as bare words (exclusions kept): what ranks the
    /// passages that hold a phrase's words apart, after those that hold the phrase.
    func relaxingPhrases() -> SearchQuery {
        var relaxed = self
        let content = phrases.flatMap { $0.filter { !Self.stopwords.contains($0) && !Self.questionWords.contains($0) } }
        var seen = Set<String>()
        relaxed.words = (words + (content.isEmpty ? phrases.flatMap { $0 } : content)).filter { seen.insert($0).inserted }
        relaxed.phrases = []
        return relaxed
    }

    /// Nothing to look for: no word and no phrase (an empty query, punctuation, or only exclusions).
    var isEmpty: Bool { words.isEmpty && phrases.isEmpty }

    /// Every word to highlight and to find in a transcript: the bare words and the phrases' content words.
    var terms: [String] {
        var seen = Set<String>()
        let phraseWords = phrases.flatMap { phrase in
            let content = phrase.filter { !Self.stopwords.contains($0) }
            return content.isEmpty ? phrase : content
        }
        return (shownWords + phraseWords).filter { seen.insert($0).inserted }
    }
}
