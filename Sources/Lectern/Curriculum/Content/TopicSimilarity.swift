import Foundation

/// How alike two topics' subjects are, from their passages' vectors: the curriculum builder
/// merges a topic of one source into a topic of another when they cover the same subject.
enum TopicSimilarity {
    /// Topics at least this similar are one subject. Chosen for MiniLM (all-MiniLM-L6-v2, the
    /// default embedder) on the labelled pairs in Tests/Fixtures/topic-merge (25 pairs; at 0.58
    /// every same-subject pair merges, and one of 16 different pairs does: the Calvin cycle and
    /// a respiration lecture, 0.64, closer in MiniLM than mitochondria and respiration, 0.59).
    /// Cosines of another embedder sit on another scale (the hashing baseline's far lower,
    /// larger models' often higher): with another embedder, choose it again on that set.
    static let mergeThreshold: Float = 0.58

    /// The threshold for the library's embedder, or nil where none was chosen: merging on a
    /// scale it was not chosen for joins unrelated topics (the hashing embedder, whose cosines
    /// follow shared words, joined "Mitochondria" to "The light-dependent reactions"), so
    /// topics of such a library stay apart.
    static func mergeThreshold(forEmbedder name: String) -> Float? {
        ["minilm", "minilm-bf16"].contains(name) ? mergeThreshold : nil
    }

    /// The cosine of the two topics' mean passage vectors. On the labelled set it separates
    /// same from different subjects better (lowest same 0.594, highest different 0.637, next
    /// 0.533) than the mean of best-match cosines (0.546 vs 0.637), which rewards two topics
    /// that share one passage-sized aside, or the maximum pair (0.594 vs 0.637).
    static func similarity(_ a: [[Float]], _ b: [[Float]]) -> Float {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        return TopicSegmentation.cosine(TopicSegmentation.mean(a), TopicSegmentation.mean(b))
    }

    /// Mean of best-match cosines, both ways.
    static func bestMatch(_ a: [[Float]], _ b: [[Float]]) -> Float {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        func oneWay(_ x: [[Float]], _ y: [[Float]]) -> Float {
            x.map { p in y.map { TopicSegmentation.cosine(p, $0) }.max() ?? 0 }.reduce(0, +) / Float(x.count)
        }
        return (oneWay(a, b) + oneWay(b, a)) / 2
    }
}
