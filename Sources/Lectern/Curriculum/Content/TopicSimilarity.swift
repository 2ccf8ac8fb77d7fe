import Foundation

/// How alike two topics' subjects are: the curriculum builder merges a topic of one source
/// into a topic of another when they cover the same subject.
///
/// Two signals, for two questions. Whether a later topic shares an earlier one's subject is
/// the cosine of their mean passage vectors (what the text is about, as the embedder reads it).
/// Which earlier topic it joins, when several pass, is the one whose rarer words it shares
/// most ("pyruvate", "mitochondrion", "electron"): vectors alone put a respiration lecture
/// closer to "The Calvin cycle" (0.637: sugar, CO₂, ATP, cycles) than to "Mitochondria"
/// (0.594), the subject it teaches, while their words put it with mitochondria (0.19 vs 0.15).
enum TopicSimilarity {
    /// Topics at least this similar are one subject. Chosen for MiniLM (all-MiniLM-L6-v2, the
    /// default embedder) on the labelled pairs in Tests/Fixtures/topic-merge (25 pairs; at 0.58
    /// every same-subject pair merges, and one of 16 different pairs passes alone: the Calvin
    /// cycle and a respiration lecture, 0.64; in a curriculum that also holds mitochondria
    /// (0.59), the words send the lecture there, see `bestCandidate`).
    /// Cosines of another embedder sit on another scale (the hashing baseline's far lower,
    /// larger models' often higher): with another embedder, choose it again on that set.
    static let mergeThreshold: Float = 0.58

    /// The threshold for the library's embedder, or nil where none was chosen: merging on a
    /// scale it was not chosen for joins unrelated topics (the hashing embedder, whose cosines
    /// follow shared words, joined "Mitochondria" to "The light-dependent reactions"), so
    /// topics of such a library stay apart.
    static func mergeThreshold(forEmbedder name: String) -> Float? {
        MiniLMEmbedder.names.contains(name) ? mergeThreshold : nil
    }

    /// The cosine of the two topics' mean passage vectors. On the labelled set it separates
    /// same from different subjects better (lowest same 0.594, highest different 0.637, next
    /// 0.533) than the mean of best-match cosines (0.546 vs 0.637), which rewards two topics
    /// that share one passage-sized aside, or the maximum pair (0.594 vs 0.637).
    static func similarity(_ a: [[Float]], _ b: [[Float]]) -> Float {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        return TopicSegmentation.cosine(TopicSegmentation.mean(a), TopicSegmentation.mean(b))
    }

    /// The earlier topic `topic` joins: of the candidates at least `threshold` similar, the one
    /// whose words it shares most (vector similarity breaks a tie); nil when none is.
    static func bestCandidate(for topic: Profile, among candidates: [Profile], threshold: Float,
                              weights: WordWeights) -> (index: Int, similarity: Float)? {
        var best: (index: Int, similarity: Float, words: Float)?
        for (index, candidate) in candidates.enumerated() {
            let similarity = similarity(candidate.vectors, topic.vectors)
            guard similarity >= threshold else { continue }
            let words = wordSimilarity(candidate.words, topic.words, weights: weights)
            if let current = best, (words, similarity) <= (current.words, current.similarity) { continue }
            best = (index, similarity, words)
        }
        return best.map { ($0.index, $0.similarity) }
    }

    /// One topic as the merge compares it: its passages' vectors and their words.
    struct Profile: Sendable {
        var vectors: [[Float]]
        /// Word → occurrences in the topic.
        var words: [String: Int]

        init(vectors: [[Float]], texts: [String]) {
            self.vectors = vectors
            var words: [String: Int] = [:]
            for text in texts { for word in Self.contentWords(text) { words[word, default: 0] += 1 } }
            self.words = words
        }

        /// Joins another topic's passages into this one (a merged topic is compared as one).
        mutating func absorb(_ other: Profile) {
            vectors += other.vectors
            words.merge(other.words, uniquingKeysWith: +)
        }

        /// Words are folded, stopwords dropped, and cut to a prefix: "mitochondrion",
        /// "mitochondria" and "mitochondrial" are one subject word, which no list of English
        /// inflections joins.
        static let prefixLength = 7

        static func contentWords(_ text: String) -> [String] {
            WordTokenizer.words(text).compactMap { word in
                let folded = WordTokenizer.fold(word)
                guard folded.count > 2, folded.contains(where: \.isLetter),
                      !ContentWords.stopwords.contains(folded) else { return nil }
                return String(TermMatcher.stem(folded).prefix(prefixLength))
            }
        }
    }

    /// How rare each word is among the passages of the sources being merged (inverse
    /// passage frequency): words every passage uses weigh little, a subject's own words much.
    struct WordWeights: Sendable {
        private var weights: [String: Float] = [:]
        private var unseen: Float

        init(passages texts: [String]) {
            var frequency: [String: Int] = [:]
            for text in texts { for word in Set(Profile.contentWords(text)) { frequency[word, default: 0] += 1 } }
            let count = Float(texts.count)
            for (word, seen) in frequency { weights[word] = log((count + 1) / (Float(seen) + 0.5)) }
            unseen = log(count + 2)
        }

        func weight(_ word: String) -> Float { weights[word] ?? unseen }
    }

    /// The cosine of the two topics' word profiles, each word counted as 1 + log(occurrences)
    /// and weighted by its rarity.
    static func wordSimilarity(_ a: [String: Int], _ b: [String: Int], weights: WordWeights) -> Float {
        func weighted(_ words: [String: Int]) -> [String: Float] {
            words.reduce(into: [:]) { $0[$1.key] = Float(1 + log(Double($1.value))) * weights.weight($1.key) }
        }
        let x = weighted(a), y = weighted(b)
        var dot: Float = 0
        for (word, value) in x { if let other = y[word] { dot += value * other } }
        let norms = (x.values.reduce(0) { $0 + $1 * $1 } * y.values.reduce(0) { $0 + $1 * $1 }).squareRoot()
        return norms > 0 ? dot / norms : 0
    }
}
