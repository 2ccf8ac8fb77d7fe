/// Whether a card's passage supports its answer: every content word of the answer, stemmed as
/// the keyword index stems it, occurs in the cited passage. Offline and strict: a card whose
/// answer says one thing the passage does not is turned away, with the words it lacks.
struct CardGrounding: Sendable {
    /// Function words that carry no claim (the one list is `DefiningSentence`’s).
    static let functionWords = DefiningSentence.functionWords

    /// The passage's stems, made once per passage.
    struct PassageStems: Sendable {
        let stems: Set<String>
        init(_ text: String) { stems = Set(PorterStemmer.stems(text)) }
        init(stems: Set<String>) { self.stems = stems }
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
        let stems = contentStems(answer)
        guard !stems.isEmpty else { return .empty }
        let missing = stems.filter { !passage.stems.contains($0) }
        if missing.isEmpty { return .supported }
        return .unsupported(missing: missing, share: Double(stems.count - missing.count) / Double(stems.count))
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
