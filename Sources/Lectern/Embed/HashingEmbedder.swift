import Foundation

/// A deterministic baseline: signed feature hashing of word unigrams and bigrams into 384
/// dimensions, L2-normalised. No model files; similar wording gives similar vectors.
struct HashingEmbedder: Embedder {
    static let name = "hashing"
    let info: EmbedderInfo
    let tokenCounter: any TokenCounter = ApproximateTokenCounter()

    init(dimension: Int = 384) {
        info = EmbedderInfo(name: Self.name, model: "feature-hashing", dimension: dimension, version: 1)
    }

    func embed(_ texts: [String]) throws -> [[Float]] {
        texts.map(vector)
    }

    private func vector(_ text: String) -> [Float] {
        let dimension = info.dimension
        var values = [Float](repeating: 0, count: dimension)
        let words = WordTokenizer.words(text)
        func add(_ feature: String, weight: Float) {
            let hash = Self.fnv1a(feature)
            let index = Int(hash % UInt64(dimension))
            let sign: Float = (hash >> 63) == 0 ? 1 : -1
            values[index] += sign * weight
        }
        for (i, word) in words.enumerated() {
            add(word, weight: 1)
            if i > 0 { add(words[i - 1] + " " + word, weight: 0.5) }
        }
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        if norm > 0 { for i in values.indices { values[i] /= norm } }
        return values
    }

    /// FNV-1a, 64-bit: stable across runs and platforms (Swift's Hasher is seeded per process).
    static func fnv1a(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
