import Foundation

/// Whether two topics use a term in the same sense: the words around it in the topic that uses
/// it overlap the words around it (and its definition) in the topic that defines it. A word in
/// another sense ("monists" of value in 8.2 against the PreSocratics' single substance in 4.2,
/// "virtues" of an explanation against Aristotle's) is said among other words. Asked only of a
/// link across units: a chapter's introduction and its sections share a sense by construction,
/// and a short introduction has too few words around the term to compare.
///
/// Measured on eval/prerequisites (dev half chose the level): see the README there.
struct TermSense {
    /// Words either side of each use that make its context.
    static let window = 12
    /// Cosine (tf-idf) of the two contexts below which the senses differ, chosen on the dev half
    /// of eval/prerequisites' cross-unit candidates: at 0.03 it turns away 36 of 52 pairs labelled
    /// not needed and 6 of 28 needed (at 0.04, 41 and 10: OCW's worked examples lose "torque").
    static let minimumOverlap = 0.03

    private let texts: [[String]]
    private let idf: [String: Double]

    /// `texts`: every topic's stems, in course order (the weights come from how many topics use a word).
    init(texts: [[String]]) {
        self.texts = texts
        var frequency: [String: Int] = [:]
        for words in texts { for word in Set(words) { frequency[word, default: 0] += 1 } }
        let count = Double(max(1, texts.count))
        idf = frequency.mapValues { log(count / Double($0)) }
    }

    /// Whether topic `user` uses `term` (stems) in the sense topic `definer` defines it
    /// (`definition`: the definer's sentence for it).
    func same(_ term: [String], user: Int, definer: Int, definition: String) -> Bool {
        let used = Self.context(of: term, in: texts[user])
        var defined = Self.context(of: term, in: texts[definer])
        for word in TermMatcher.stems(definition) where Self.counts(word) && !term.contains(word) { defined[word, default: 0] += 1 }
        return cosine(used, defined) >= Self.minimumOverlap
    }

    /// The content words within `window` of each use of `term` in `words`, with their counts.
    static func context(of term: [String], in words: [String]) -> [String: Int] {
        var bag: [String: Int] = [:]
        guard !term.isEmpty, words.count >= term.count else { return bag }
        var index = 0
        while index <= words.count - term.count {
            guard words[index] == term[0], Array(words[index..<(index + term.count)]) == term else { index += 1; continue }
            let after = index + term.count
            for word in words[max(0, index - window)..<index] + words[after..<min(words.count, after + window)]
            where counts(word) && !term.contains(word) {
                bag[word, default: 0] += 1
            }
            index = after
        }
        return bag
    }

    static func counts(_ word: String) -> Bool { word.count > 2 && !ContentWords.stopwords.contains(word) }

    private func cosine(_ a: [String: Int], _ b: [String: Int]) -> Double {
        func weights(_ bag: [String: Int]) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: bag.map { ($0.key, (1 + log(Double($0.value))) * (idf[$0.key] ?? 0)) })
        }
        let (x, y) = (weights(a), weights(b))
        let dot = x.reduce(0) { $0 + $1.value * (y[$1.key] ?? 0) }
        let norms = sqrt(x.values.reduce(0) { $0 + $1 * $1 }) * sqrt(y.values.reduce(0) { $0 + $1 * $1 })
        return norms > 0 ? dot / norms : 0
    }
}
