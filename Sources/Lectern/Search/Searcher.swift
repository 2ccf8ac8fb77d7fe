import Foundation

/// Hybrid search: FTS5 BM25 and exact k-NN over the vector blocks, fused by reciprocal rank.
public struct Searcher: Sendable {
    var store: LibraryStore
    var embedder: any Embedder
    /// The reciprocal-rank-fusion constant (Cormack et al. use 60).
    var fusionK: Double = 60
    /// How deep each ranking goes before fusion.
    var candidates = 100
    /// Whether hits carry their link (`PassageLink`): a few lookups a hit, which a ranking that
    /// reads hundreds of hits a query (`lectern eval`) does without.
    var links = true

    public init(store: LibraryStore, embedder: any Embedder) {
        self.store = store
        self.embedder = embedder
    }

    static let stopwords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "how", "in", "is", "it",
        "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "why", "with",
    ]

    /// The query's words, lower-cased and folded; stopwords dropped unless nothing else is left.
    static func terms(_ query: String) -> [String] {
        let words = WordTokenizer.words(query).map(WordTokenizer.fold)
        let content = words.filter { !stopwords.contains($0) }
        var seen = Set<String>()
        return (content.isEmpty ? words : content).filter { seen.insert($0).inserted }
    }

    public func search(_ query: String, k: Int = 10, mode: SearchMode = .hybrid, filter: SearchFilter = SearchFilter()) throws -> [SearchHit] {
        let terms = Self.terms(query)
        guard !terms.isEmpty else {
            throw LecternError(.invalidInput, "query", "'\(query)' has no words to search for")
        }
        let allowedDocuments = try documentIds(for: filter)
        if let allowedDocuments, allowedDocuments.isEmpty { return [] }
        let depth = max(candidates, k)

        var keyword: [Int64] = []
        if mode != .semantic {
            keyword = try store.keywordMatches(terms, limit: depth, documents: allowedDocuments)
        }
        var semantic: [(id: Int64, score: Float)] = []
        if mode != .keyword {
            let index = try store.vectorIndex(for: embedder.info)
            let allowedPassages = try allowedDocuments.map { try store.passageIds(documents: $0) }
            semantic = index.nearest(to: try embedder.embed(query), k: depth, allowed: allowedPassages)
        }

        var scores: [Int64: Double] = [:]
        var keywordRanks: [Int64: Int] = [:]
        var semanticRanks: [Int64: Int] = [:]
        for (rank, id) in keyword.enumerated() { keywordRanks[id] = rank + 1 }
        for (rank, hit) in semantic.enumerated() { semanticRanks[hit.id] = rank + 1 }
        switch mode {
        case .keyword:
            for (rank, id) in keyword.enumerated() { scores[id] = 1.0 / Double(rank + 1) }
        case .semantic:
            for hit in semantic { scores[hit.id] = Double(hit.score) }
        case .hybrid:
            for (id, rank) in keywordRanks { scores[id, default: 0] += 1 / (fusionK + Double(rank)) }
            for (id, rank) in semanticRanks { scores[id, default: 0] += 1 / (fusionK + Double(rank)) }
        }
        let ranked = scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(k)
        let passages = try store.passages(ids: ranked.map(\.key))
        return try zip(ranked, passages).enumerated().map { index, pair in
            let (entry, passage) = pair
            let snippet = Snippet.make(passage.text, terms: terms)
            let spoken = Self.spokenAt(passage, terms: terms)
            // Several people speak in a passage: name the one who says the words at `spoken`.
            var speaker = passage.speaker
            if let spoken, speaker?.contains(",") == true, let who = try store.speaker(documentId: passage.documentId, at: spoken) {
                speaker = who
            }
            var hit = SearchHit(
                rank: index + 1, score: entry.value, passageId: passage.id, documentId: passage.documentShortId,
                title: passage.documentTitle, sectionPath: passage.sectionPath, location: Location.describe(passage, at: spoken),
                uri: passage.documentURI, path: passage.documentPath, type: passage.documentType.rawValue, kind: passage.kind,
                pageStart: passage.pageStart, pageEnd: passage.pageEnd, timeStart: passage.timeStart,
                timeEnd: passage.timeEnd, time: spoken, speaker: speaker, snippet: snippet.text,
                highlights: snippet.highlights, text: passage.text,
                keywordRank: keywordRanks[passage.id], semanticRank: semanticRanks[passage.id])
            hit.pageLabel = passage.pageLabel
            if links { hit.link = try PassageLink.link(for: passage, at: spoken, store: store) }
            return hit
        }
    }

    /// For a transcript passage, the start of the timed sentence that holds the most query
    /// words (distinct words first): where a user should start listening.
    static func spokenAt(_ passage: StoredPassage, terms: [String]) -> Double? {
        guard let start = passage.timeStart else { return nil }
        guard let timeline = passage.timeline, timeline.count > 1 else { return start }
        let chars = Array(passage.text)
        var distinct = [Set<String>](repeating: [], count: timeline.count)
        var total = [Int](repeating: 0, count: timeline.count)
        for word in Snippet.wordRanges(passage.text) {
            let text = String(chars[word.start..<word.end])
            guard Snippet.matches(text, terms) else { continue }
            let segment = timeline.lastIndex { $0.offset <= word.start } ?? 0
            distinct[segment].insert(WordTokenizer.fold(text))
            total[segment] += 1
        }
        var best = 0
        for index in timeline.indices where (distinct[index].count, total[index]) > (distinct[best].count, total[best]) {
            best = index
        }
        return total[best] > 0 ? timeline[best].seconds : start
    }

    func documentIds(for filter: SearchFilter) throws -> Set<Int64>? {
        guard !filter.isEmpty else { return nil }
        var ids: Set<Int64>?
        if !filter.sources.isEmpty {
            var matched = Set<Int64>()
            for source in filter.sources {
                matched.formUnion(try store.documents(matching: source, absolutePath: Configuration.resolvePath(source, base: nil)).map(\.id))
            }
            ids = matched
        }
        if !filter.types.isEmpty {
            let typed = try store.documentIds(types: filter.types)
            ids = ids.map { $0.intersection(typed) } ?? typed
        }
        return ids
    }
}
