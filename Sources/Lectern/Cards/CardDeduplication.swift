import Foundation

/// Removes duplicate notes within a curriculum: the same GUID or the same normalised front and
/// back (exact), and notes whose front + back vectors have cosine ≥ 0.95 (near). The better-
/// grounded note stays (then the glossary's over a sentence's, then the earlier). A reversed
/// card is part of its note, so it never counts as a duplicate of it.
enum CardDeduplication {
    static let nearThreshold: Float = 0.95

    static func deduplicate(_ cards: [Flashcard]) -> (cards: [Flashcard], exact: Int, near: Int) {
        // Best first, so the first of a duplicate group is the one kept.
        let ranked = cards.indices.sorted { a, b in
            let x = cards[a], y = cards[b]
            if x.grounding != y.grounding { return x.grounding > y.grounding }
            let rx = rank(x.origin), ry = rank(y.origin)
            if rx != ry { return rx < ry }
            return a < b
        }
        var seenGuids = Set<String>()
        var seenTexts = Set<String>()
        var exact = 0
        var survivors: [Int] = []
        for index in ranked {
            let card = cards[index]
            let text = CardIdentity.normalised(card.front) + "\u{1F}" + CardIdentity.normalised(card.back)
            guard seenGuids.insert(card.guid).inserted, seenTexts.insert(text).inserted else {
                exact += 1
                continue
            }
            survivors.append(index)
        }
        let embedder = HashingEmbedder()
        let vectors = (try? embedder.embed(survivors.map { ClozeText.revealed(cards[$0].front) + " " + cards[$0].back })) ?? []
        let dimension = embedder.info.dimension
        var keptVectors: [Float] = []
        keptVectors.reserveCapacity(survivors.count * dimension)
        var kept: [Int] = []
        var near = 0
        for (position, index) in survivors.enumerated() {
            let vector = vectors[position]
            if isNear(vector, keptVectors, count: kept.count, dimension: dimension) {
                near += 1
                continue
            }
            kept.append(index)
            keptVectors += vector
        }
        // Back in generation order: topics and their cards as the curriculum reads.
        return (kept.sorted().map { cards[$0] }, exact, near)
    }

    private static func rank(_ origin: CardOrigin) -> Int {
        switch origin {
        case .glossary, .environment, .formula, .example, .statement: return 0
        case .keyTerm: return 1
        case .definition: return 2
        case .objective: return 3
        case .model: return 4
        }
    }

    /// Whether `vector` (unit length) has cosine ≥ the threshold with any of `count` kept vectors.
    private static func isNear(_ vector: [Float], _ kept: [Float], count: Int, dimension: Int) -> Bool {
        vector.withUnsafeBufferPointer { v in
            kept.withUnsafeBufferPointer { k in
                for row in 0..<count {
                    var dot: Float = 0
                    let base = row * dimension
                    for i in 0..<dimension { dot += v[i] * k[base + i] }
                    if dot >= nearThreshold { return true }
                }
                return false
            }
        }
    }
}
