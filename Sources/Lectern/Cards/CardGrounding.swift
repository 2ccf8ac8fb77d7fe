/// Whether a card's passage supports its answer: every content word of the answer, stemmed as
/// the keyword index stems it, occurs in the cited passage. Offline and strict: a card whose
/// answer says one thing the passage does not is turned away, with the words it lacks.
struct CardGrounding: Sendable {
    /// Function words that carry no claim (the one list is `DefiningSentence`’s).
    static let functionWords = DefiningSentence.functionWords

    /// The passage's stems, made once per passage.
    struct PassageStems: Sendable {
        let stems: Set<String>
        /// The first four letters of the passage's words of each stem: the stemmer joins words
        /// that share only a root ("useful" and "uses" are both "use"), and a word of the answer
        /// counts where the passage has a word of its stem that begins as it does.
        let beginnings: [String: Set<Substring>]?
        init(_ text: String) {
            var beginnings: [String: Set<Substring>] = [:]
            for word in PorterStemmer.foldedWords(text) { beginnings[PorterStemmer.cachedStem(word), default: []].insert(word.prefix(4)) }
            stems = Set(beginnings.keys)
            self.beginnings = beginnings
        }
        init(stems: Set<String>) {
            self.stems = stems
            beginnings = nil
        }

        func holds(_ word: String, stem: String) -> Bool {
            guard stems.contains(stem) else { return false }
            guard let beginnings else { return true }
            return beginnings[stem]?.contains(word.prefix(4)) ?? false
        }
    }

    enum Verdict: Equatable {
        case supported
        case unsupported(missing: [String], share: Double)
        case empty
    }

    /// The answer's content words, folded and stemmed (duplicates kept once, in order).
    static func contentStems(_ answer: String) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for folded in PorterStemmer.foldedWords(answer) {
            guard !functionWords.contains(folded) else { continue }
            let stem = PorterStemmer.cachedStem(folded)
            if seen.insert(stem).inserted { result.append(stem) }
        }
        return result
    }

    static func check(answer: String, in passage: PassageStems) -> Verdict {
        // Each content stem once, held when one of its words in the answer begins as a word of
        // the passage with that stem does.
        var order: [String] = []
        var held: [String: Bool] = [:]
        for folded in PorterStemmer.foldedWords(answer) where !functionWords.contains(folded) {
            let stem = PorterStemmer.cachedStem(folded)
            if held[stem] == nil { order.append(stem) }
            held[stem] = (held[stem] ?? false) || passage.holds(folded, stem: stem)
        }
        guard !order.isEmpty else { return .empty }
        let missing = order.filter { held[$0] != true }
        if missing.isEmpty { return .supported }
        return .unsupported(missing: missing, share: Double(order.count - missing.count) / Double(order.count))
    }

    /// The share of the answer's content stems the passage holds (0 when it has none).
    static func share(answer: String, in passage: PassageStems) -> Double {
        switch check(answer: answer, in: passage) {
        case .supported: return 1
        case .unsupported(_, let share): return share
        case .empty: return 0
        }
    }
}
