/// Scores that mean the same whatever the query: each ranking's own evidence mapped onto 0…1
/// by fixed curves (not scaled to the query's own best and worst candidates, which made every
/// query's top hit look like a perfect match, a gibberish query's included).
public enum Relevance {
    /// The BM25 score at which keyword evidence counts half: a passage holding one of the
    /// query's rarer words once, about (on the shared corpus, FTS5's BM25 with Lectern's
    /// column weights).
    static let halfBM25 = 6.0
    /// MiniLM cosines at and under this say nothing (unrelated passages score 0.0–0.2).
    static let noCosine = 0.15
    /// Hits under this score are marked weak: neither ranking found much of the query in them.
    public static let weakBelow = 0.3

    /// Keyword evidence: 0 for no match, half at `halfBM25`, nearing 1 as BM25 grows.
    static func keyword(_ bm25: Double) -> Double {
        bm25 <= 0 ? 0 : bm25 / (bm25 + halfBM25)
    }

    /// Semantic evidence: the cosine above `noCosine`, as a share of the span up to 1 (linear,
    /// so that it ranks as the cosine does; a passage that answers a question in other words
    /// scores about 0.6, 0.5 here).
    static func semantic(_ cosine: Double) -> Double {
        min(1, max(0, (cosine - noCosine) / (1 - noCosine)))
    }

    /// Hybrid: the two weighted (`keywordWeight` for BM25), a ranking a passage is absent from
    /// counting 0; `semanticShare` of the semantic evidence counts (less than 1 for a short passage).
    static func fused(bm25: Double?, cosine: Double?, semanticShare: Double = 1, keywordWeight: Double) -> Double {
        keywordWeight * (bm25.map(keyword) ?? 0) + (1 - keywordWeight) * semanticShare * (cosine.map(semantic) ?? 0)
    }
}
