import Foundation

/// An embedder for the questions of one request, each embedded once: a tutoring context asks
/// the same question three times (its best topic, the topic's passages, the library's), and a
/// query's embedding is the largest part of a hybrid search's CPU. Made per request and let go
/// with it, so a long-lived session still embeds a question asked again in a later request.
final class QuestionVectors: Embedder {
    let base: any Embedder
    private let kept = Locked<[String: [Float]]>([:])
    /// Texts this request embedded (each once, however often it was asked).
    var embedded: Int { kept.withLock { $0.count } }

    init(_ base: any Embedder) {
        self.base = base
    }

    var info: EmbedderInfo { base.info }
    var tokenCounter: any TokenCounter { base.tokenCounter }
    var isEnglishOnly: Bool { base.isEnglishOnly }

    func prepare() throws {
        try base.prepare()
    }

    func embed(_ texts: [String]) throws -> [[Float]] {
        let missing = kept.withLock { kept in Array(Set(texts.filter { kept[$0] == nil })) }
        if !missing.isEmpty {
            let vectors = try base.embed(missing)
            kept.withLock { kept in
                for (text, vector) in zip(missing, vectors) { kept[text] = vector }
            }
        }
        return kept.withLock { kept in texts.map { kept[$0]! } }
    }
}
