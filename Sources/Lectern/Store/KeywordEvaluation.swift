import Foundation

/// How a keyword query is evaluated, by how many passages hold its words. FTS5's bm25() costs
/// about half a microsecond for every passage that holds any of the query's words (it reads
/// each one's row size), so a query with a word that most of a million passages hold took half
/// a second however rare its other words were. Above `fullBelow` passages (estimated), the
/// words whose idf is tiny beside the query's rarest word are left out of the match: they
/// could add little to any passage's score (at most 2.2 × their idf, and nothing at all for a
/// word more than half the passages hold, whose idf FTS5 floors at 10⁻⁶), and the passages the
/// rarer words find are ranked by those words alone. When the rarer words find fewer passages
/// than asked for, passages holding the common words follow, in library order, with their
/// own BM25.
struct KeywordEvaluation: Sendable, Equatable {
    /// Every word is ranked while the passages holding any of them are estimated at fewer than this.
    var fullBelow = 50_000
    /// A word is left out when its idf is under this share of the highest idf among the query's
    /// words (or its idf is FTS5's floor: more than half the passages hold it).
    var commonShare = 0.25
    /// Each word's share of passages is counted in this many windows of rowids, spread over the library…
    var windows = 8
    /// …of this many rowids each: the sample costs the same at any size.
    var windowSpan = 256
    /// A SQLite library ranks a query of words from its keyword postings (`KeywordPostings`),
    /// every word exactly as FTS5 would, at a tenth of the cost, and all of the above applies only
    /// to the queries they cannot rank (a quoted phrase of several words). False: FTS5 alone
    /// (what the postings are checked against).
    var postings = true

    /// Every query word ranked, as FTS5 alone ranks them.
    static let full = KeywordEvaluation(fullBelow: .max)

    /// Every query word ranked by FTS5's bm25() itself.
    static let fts5 = KeywordEvaluation(fullBelow: .max, postings: false)

    /// FTS5's idf for a word `holding` of `passages` hold: ln((N − n + ½)/(n + ½)), floored at 10⁻⁶.
    static func idf(holding: Double, of passages: Double) -> Double {
        let idf = log((passages - holding + 0.5) / (holding + 0.5))
        return idf > 0 ? idf : 1e-6
    }

    /// Which of `words` (by index) to leave out of the match, given each one's estimated share of
    /// the library's `passages`; none when the query is cheap as it is. At least one word stays.
    func commonWords(shares: [Double], passages: Int) -> Set<Int> {
        guard shares.count > 1, passages > 0 else { return [] }
        let total = Double(passages)
        guard shares.reduce(0, +) * total >= Double(fullBelow) else { return [] }
        let idfs = shares.map { Self.idf(holding: $0 * total, of: total) }
        guard let rarest = idfs.indices.max(by: { idfs[$0] < idfs[$1] }) else { return [] }
        return Set(idfs.indices.filter { $0 != rarest && (shares[$0] > 0.5 || idfs[$0] < commonShare * idfs[rarest]) })
    }
}
