import Foundation

/// The offline summariser: TextRank (Mihalcea and Tarau, 2004) over TF-IDF cosine similarity
/// between sentences picks 3–5 central, non-redundant sentences, shown in reading order; the
/// key points are the top key phrases from TextRank over word co-occurrence. Deterministic:
/// the same text always gives the same summary.
public struct ExtractiveSummarizer: Summarizer {
    public let provider = "extractive"
    public let model = "textrank-tfidf/1"
    /// Sentences ranked together at most; longer texts are ranked in windows whose winners
    /// are ranked again, which keeps a 1,000-page book linear rather than quadratic.
    var window = 300
    var maxKeyPoints = 6

    public init() {}

    public func summarize(_ input: SummaryInput) throws -> Summary {
        // A whole document: its opening text and its sections' summaries.
        let paragraphs = input.paragraphs + input.sectionSummaries.map(\.summary.text)
        let sentences = Self.sentences(paragraphs)
        guard !sentences.isEmpty else {
            throw LecternError(.empty, input.section ?? input.title, "no text to summarise")
        }
        let words = sentences.reduce(0) { $0 + $1.words.count }
        let wanted = min(sentences.count, max(3, min(5, 3 + words / 1500)))
        let chosen = choose(sentences, count: wanted)
        let text = chosen.sorted().map { sentences[$0].text }.joined(separator: " ")
        return Summary(text: text, keyPoints: Self.keyPhrases(sentences, limit: maxKeyPoints))
    }

    // MARK: Sentences

    struct Sentence {
        var text: String
        /// Folded content words (stopwords out), in order.
        var words: [String]
    }

    /// Statements of 4–80 words from the paragraphs, without links (all sentences when none qualify).
    static func sentences(_ paragraphs: [String]) -> [Sentence] {
        var all: [Sentence] = []
        var folded: [String: String] = [:]  // folding is slow; a text repeats its words
        func fold(_ word: String) -> String {
            if let known = folded[word] { return known }
            let result = WordTokenizer.fold(word)
            folded[word] = result
            return result
        }
        for paragraph in paragraphs {
            for piece in SentenceSplitter.split(TextCleanup.collapseWhitespace(paragraph)) {
                let tokens = WordTokenizer.words(piece.text)
                guard !tokens.isEmpty else { continue }
                all.append(Sentence(text: piece.text, words: tokens.map(fold).filter { !stopwords.contains($0) && $0.count > 1 }))
            }
        }
        let usable = all.filter { sentence in
            let count = sentence.text.split(whereSeparator: \.isWhitespace).count
            // Links and references are not what a text says.
            let lower = sentence.text.lowercased()
            if lower.contains("http://") || lower.contains("https://") || lower.contains("www.") { return false }
            // A question asks rather than tells.
            if sentence.text.trimmingCharacters(in: closingMarks).hasSuffix("?") { return false }
            return count >= 4 && count <= 80 && !sentence.words.isEmpty
        }
        return usable.isEmpty ? all.filter { !$0.words.isEmpty } : usable
    }

    // MARK: Sentence ranking

    /// Indices of `count` high-ranked sentences, skipping near-repeats of ones already chosen.
    func choose(_ sentences: [Sentence], count: Int) -> [Int] {
        let vectors = Self.tfidf(sentences.map(\.words))
        var candidates = Array(sentences.indices)
        // Rank in windows until the candidates fit one window.
        while candidates.count > window {
            var winners: [Int] = []
            var start = 0
            while start < candidates.count {
                let slice = Array(candidates[start..<min(start + window, candidates.count)])
                let scores = Self.textRank(slice.map { vectors[$0] })
                let keep = max(count, slice.count / 10)
                winners += Self.order(scores).prefix(keep).map { slice[$0] }
                start += window
            }
            candidates = winners.sorted()
        }
        // A sentence that opens with "It", "They", "This" … leans on the one before it and reads
        // badly alone: ranked a little lower.
        let scores = zip(Self.textRank(candidates.map { vectors[$0] }), candidates).map { score, index in
            Self.leansOnPrevious(sentences[index].text) ? score * 0.75 : score
        }
        var chosen: [Int] = []
        for position in Self.order(scores) {
            let index = candidates[position]
            if chosen.contains(where: { Self.cosine(vectors[$0], vectors[index]) > 0.45 }) { continue }
            chosen.append(index)
            if chosen.count == count { break }
        }
        // Redundancy filtering can leave too few: fill from the ranking.
        for position in Self.order(scores) where chosen.count < count && !chosen.contains(candidates[position]) {
            chosen.append(candidates[position])
        }
        return chosen
    }

    static let closingMarks = CharacterSet(charactersIn: "\"'”’)]» ")

    static let anaphora: Set<String> = ["it", "its", "they", "their", "them", "this", "these", "those", "that", "he", "she", "his", "her", "such", "also", "and", "but", "so"]

    static func leansOnPrevious(_ sentence: String) -> Bool {
        guard let first = sentence.split(whereSeparator: { !$0.isLetter }).first else { return false }
        return anaphora.contains(first.lowercased())
    }

    /// Positions by descending score, earlier first on ties.
    static func order(_ scores: [Double]) -> [Int] {
        scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
    }

    typealias SparseVector = [(term: Int, weight: Double)]

    /// L2-normalised TF-IDF vectors (terms sorted by id), IDF over these sentences.
    static func tfidf(_ documents: [[String]]) -> [SparseVector] {
        var ids: [String: Int] = [:]
        var frequency: [Int: Int] = [:]
        let counted: [[Int: Int]] = documents.map { words in
            var counts: [Int: Int] = [:]
            for word in words {
                let id = ids[word] ?? { let next = ids.count; ids[word] = next; return next }()
                counts[id, default: 0] += 1
            }
            for id in counts.keys { frequency[id, default: 0] += 1 }
            return counts
        }
        let n = Double(documents.count)
        return counted.map { counts in
            var vector = counts.map { (term: $0.key, weight: (1 + log(Double($0.value))) * (log((1 + n) / (1 + Double(frequency[$0.key] ?? 0))) + 1)) }
            vector.sort { $0.term < $1.term }
            let norm = vector.reduce(0) { $0 + $1.weight * $1.weight }.squareRoot()
            return norm > 0 ? vector.map { ($0.term, $0.weight / norm) } : vector
        }
    }

    static func cosine(_ a: SparseVector, _ b: SparseVector) -> Double {
        var i = 0, j = 0, sum = 0.0
        while i < a.count && j < b.count {
            if a[i].term == b[j].term {
                sum += a[i].weight * b[j].weight
                i += 1
                j += 1
            } else if a[i].term < b[j].term {
                i += 1
            } else {
                j += 1
            }
        }
        return sum
    }

    /// PageRank (damping 0.85) over the weighted similarity graph; a fixed iteration order
    /// and count keep it deterministic.
    static func textRank(_ vectors: [SparseVector]) -> [Double] {
        let n = vectors.count
        guard n > 1 else { return [Double](repeating: 1, count: n) }
        var weights = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n {
            for j in (i + 1)..<n {
                let similarity = cosine(vectors[i], vectors[j])
                weights[i][j] = similarity
                weights[j][i] = similarity
            }
        }
        let outSums = weights.map { $0.reduce(0, +) }
        var scores = [Double](repeating: 1.0 / Double(n), count: n)
        let damping = 0.85
        for _ in 0..<60 {
            var next = [Double](repeating: (1 - damping) / Double(n), count: n)
            for j in 0..<n where outSums[j] > 0 {
                let share = damping * scores[j] / outSums[j]
                for i in 0..<n where weights[j][i] > 0 { next[i] += share * weights[j][i] }
            }
            // Sentences with no neighbour pass their rank on evenly (PageRank's dangling nodes).
            let dangling = (0..<n).filter { outSums[$0] == 0 }.reduce(0) { $0 + scores[$1] } * damping / Double(n)
            var change = 0.0
            for i in 0..<n {
                next[i] += dangling
                change += abs(next[i] - scores[i])
            }
            scores = next
            if change < 1e-9 { break }
        }
        return scores
    }

    // MARK: Key phrases

    /// TextRank over content words that co-occur within two words of each other; adjacent
    /// top-ranked words join into phrases ("light-dependent reactions"), ranked by their words'
    /// mean score, shown as first written.
    static func keyPhrases(_ sentences: [Sentence], limit: Int) -> [String] {
        var ids: [String: Int] = [:]
        var names: [String] = []
        func id(_ word: String) -> Int {
            if let known = ids[word] { return known }
            ids[word] = names.count
            names.append(word)
            return names.count - 1
        }
        var edges: [Int: [Int: Double]] = [:]
        for sentence in sentences {
            let words = sentence.words.map(id)
            for (i, a) in words.enumerated() {
                for b in words[(i + 1)..<min(i + 3, words.count)] where a != b {
                    edges[a, default: [:]][b, default: 0] += 1
                    edges[b, default: [:]][a, default: 0] += 1
                }
            }
        }
        let n = names.count
        guard n > 0 else { return [] }
        // Adjacency in a fixed order, normalised once.
        let adjacency: [[(Int, Double)]] = (0..<n).map { j in
            guard let neighbours = edges[j] else { return [] }
            let total = neighbours.values.reduce(0, +)
            return neighbours.sorted { $0.key < $1.key }.map { ($0.key, $0.value / total) }
        }
        var scores = [Double](repeating: 1.0 / Double(n), count: n)
        for _ in 0..<50 {
            var next = [Double](repeating: 0.15 / Double(n), count: n)
            for j in 0..<n {
                let share = 0.85 * scores[j]
                for (i, w) in adjacency[j] { next[i] += share * w }
            }
            scores = next
        }
        let top = Set(order(scores).prefix(max(limit * 2, n / 4)))
        // Phrases: runs of top words in the original sentences (up to three words).
        var foldCache: [String: String] = [:]
        func fold(_ word: String) -> String {
            if let known = foldCache[word] { return known }
            let result = WordTokenizer.fold(word)
            foldCache[word] = result
            return result
        }
        var phraseScore: [String: Double] = [:]
        var shown: [String: String] = [:]
        var firstSeen: [String: Int] = [:]
        var occurrences: [String: Int] = [:]
        var seen = 0
        for sentence in sentences {
            let surface = Self.surfaceWords(sentence.text)
            var run: [String] = []
            func close() {
                defer { run = [] }
                guard !run.isEmpty else { return }
                let key = run.map(fold).joined(separator: " ")
                let mean = run.map { scores[ids[fold($0)] ?? 0] }.reduce(0, +) / Double(run.count)
                phraseScore[key] = max(phraseScore[key] ?? 0, mean * (1 + 0.3 * Double(run.count - 1)))
                occurrences[key, default: 0] += 1
                if shown[key] == nil {
                    shown[key] = run.joined(separator: " ")
                    firstSeen[key] = seen
                    seen += 1
                }
            }
            for word in surface {
                let folded = fold(word)
                if let wordId = ids[folded], top.contains(wordId), folded.count > 2, !folded.hasSuffix("ly"), run.count < 3 {
                    run.append(word)
                } else {
                    close()
                }
            }
            close()
        }
        // A phrase that recurs is more likely a term of the subject than a chance pairing.
        for (key, score) in phraseScore { phraseScore[key] = score * (1 + log(Double(occurrences[key] ?? 1))) }
        var result: [String] = []
        let ranked = phraseScore.keys.sorted {
            phraseScore[$0]! != phraseScore[$1]! ? phraseScore[$0]! > phraseScore[$1]! : firstSeen[$0]! < firstSeen[$1]!
        }
        for key in ranked where result.count < limit {
            // Skip a phrase that is part of (or contains) one already chosen.
            if result.contains(where: { $0.contains(key) || key.contains($0) }) { continue }
            result.append(key)
        }
        return result.map { shown[$0] ?? $0 }
    }

    /// Letter-and-digit runs as written (keeps "ATP" and "Calvin").
    static func surfaceWords(_ text: String) -> [String] {
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
}
