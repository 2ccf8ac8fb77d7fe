extension Embedder {
    /// Embeds `texts` `batchSize` at a time (what `lectern embed` measures), in order.
    public func embed(_ texts: [String], batchSize: Int) throws -> [[Float]] {
        var vectors: [[Float]] = []
        vectors.reserveCapacity(texts.count)
        for start in stride(from: 0, to: texts.count, by: max(1, batchSize)) {
            vectors += try embed(Array(texts[start..<min(start + max(1, batchSize), texts.count)]))
        }
        return vectors
    }
}
