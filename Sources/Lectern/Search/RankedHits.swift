/// A search's ranking whose hits are read only when asked for, a page at a time: what a
/// caller that shows only the first few of many ranked passages needs (a tutoring context
/// ranks every passage of a topic and its prerequisites, and a budget keeps a handful). Reading
/// a hit (its text, snippet, location and link) costs far more than ranking it.
public final class RankedHits {
    let searcher: Searcher
    let ranking: Searcher.Ranking
    private var read: [SearchHit] = []
    /// Hits read at once (one query for their rows; the rest of a hit is read for it alone).
    static let page = 4

    init(searcher: Searcher, ranking: Searcher.Ranking) {
        self.searcher = searcher
        self.ranking = ranking
    }

    /// How many passages the ranking holds.
    public var count: Int { ranking.passages.count }

    /// The same hits in another order: `order` lists indexes of this ranking (nothing read yet).
    public func reordered(_ order: [Int]) -> RankedHits {
        RankedHits(searcher: searcher, ranking: Searcher.Ranking(passages: order.map { ranking.passages[$0] }, terms: ranking.terms))
    }

    /// The id of the passage at `index`, without reading it.
    public func passageId(_ index: Int) -> Int64 {
        ranking.passages[index].id
    }

    /// The hit at `index` (0 is the best), read with the rest of its page when first asked for.
    public func hit(_ index: Int) throws -> SearchHit {
        if index >= read.count {
            let end = min(count, max(index + 1, read.count + Self.page))
            var more = try searcher.hits(Array(ranking.passages[read.count..<end]), terms: ranking.terms)
            // Ranks count from the ranking's start, not the page's.
            for offset in more.indices { more[offset].rank = read.count + offset + 1 }
            read += more
        }
        return read[index]
    }

    /// Every hit, read now.
    public func all() throws -> [SearchHit] {
        count == 0 ? [] : try (0..<count).map(hit)
    }
}
