import Foundation

/// Hybrid search: FTS5 BM25 and k-NN over the compact vectors (re-ranked with the float32
/// rows), fused by a weighted sum of their normalised scores.
///
/// A searcher keeps what it loads: the query embedder (made on the first search that needs a
/// query vector, never by a keyword search) and the library's compact vectors (reloaded when
/// they change). Copies share both, so one searcher asked many questions stays warm.
public struct Searcher: Sendable {
    /// The library, on either backend (`Library`).
    var store: any LibraryBackend
    var queryEmbedder: QueryEmbedder
    let vectorCache = VectorCache()
    /// The request this searcher's searches belong to (`SearchSession.forOneRequest`); nil: each
    /// search is a request of its own.
    var request: SearchRequest?
    /// How deep each ranking goes before fusion.
    var candidates = 100
    /// Whether hits carry their link (`PassageLink`): a few lookups a hit, which a ranking that
    /// reads hundreds of hits a query (`lectern eval`) does without.
    var links = true
    /// What BM25 counts for in hybrid search; vector similarity counts for the rest (tuned on the
    /// dev half of eval/shared: bench/results/eval_tuning.md).
    var keywordWeight = 0.3
    /// BM25's weights of a passage's text and section path.
    var keywordWeights = LibraryStore.KeywordWeights()
    /// When the words most passages hold are left out of a keyword match (large libraries).
    var keywordEvaluation = KeywordEvaluation()
    /// How many of the compact scan's best rows are re-ranked with their float32 vectors, for
    /// a ranking `depth` deep.
    var rerankDepth: @Sendable (Int) -> Int = { depth in max(2 * depth, 100) }

    public init(store: LibraryStore, embedder: any Embedder) {
        self.init(library: Library(store), embedder: embedder)
    }

    public init(library: Library, embedder: any Embedder) {
        self.store = library.backend
        self.queryEmbedder = QueryEmbedder(embedder)
    }

    /// A searcher that makes the library's embedder (`EmbedderCatalog.resolve`) only when a
    /// search first needs a query vector.
    public init(store: LibraryStore, configuration: Configuration) {
        self.init(library: Library(store), configuration: configuration)
    }

    public init(library: Library, configuration: Configuration) {
        self.store = library.backend
        self.queryEmbedder = QueryEmbedder { try EmbedderCatalog.resolve(library: library, configuration: configuration) }
    }

    /// The query's words, lower-cased and folded; stopwords dropped unless nothing else is left.
    static func terms(_ query: String) -> [String] {
        SearchQuery(parsing: query).terms
    }

    public func search(_ query: String, k: Int = 10, mode: SearchMode = .hybrid, filter: SearchFilter = SearchFilter()) throws -> [SearchHit] {
        var timings = SearchTimings()
        return try search(query, k: k, mode: mode, filter: filter, timings: &timings)
    }

    /// `search`, telling how long the query's embedding took apart from the rest.
    func search(_ query: String, k: Int, mode: SearchMode, filter: SearchFilter, timings: inout SearchTimings) throws -> [SearchHit] {
        var notes: [String] = []
        return try search(query, k: k, mode: mode, filter: filter, timings: &timings, notes: &notes)
    }

    /// `search`, with what a user should be told about its hits in `notes`: a quoted phrase
    /// or an exclusion that left nothing, and what is shown instead.
    func search(_ query: String, k: Int, mode: SearchMode, filter: SearchFilter, timings: inout SearchTimings,
                notes: inout [String]) throws -> [SearchHit] {
        let ranking = try rank(query, k: k, mode: mode, filter: filter, timings: &timings, notes: &notes)
        return try hits(ranking.passages, terms: ranking.terms)
    }

    /// A ranking's passages, best first, before any is read as a hit, and the query words
    /// their snippets highlight.
    struct Ranking {
        var passages: [RankedPassage]
        var terms: [String]
    }

    /// `search`'s ranking alone: what it would show, in order, with nothing read for a hit yet
    /// (a caller that uses only the first few, as a context within a budget does, reads those).
    func rank(_ query: String, k: Int, mode: SearchMode, filter: SearchFilter, timings: inout SearchTimings,
              notes: inout [String]) throws -> Ranking {
        let parsed = SearchQuery(parsing: query)
        guard !parsed.isEmpty else {
            let why = parsed.exclusions.isEmpty ? "has no words to search for" : "only excludes: it needs a word or a \"phrase\" to search for"
            throw LecternError(.invalidInput, "query", "'\(query)' \(why)")
        }
        let terms = parsed.terms
        let allowedDocuments = try documentIds(for: filter)
        if let allowedDocuments, allowedDocuments.isEmpty { return Ranking(passages: [], terms: terms) }
        if let passages = filter.passages, passages.isEmpty { return Ranking(passages: [], terms: terms) }
        var ranked = try rank(parsed, query: query, k: k, mode: mode, documents: allowedDocuments, passages: filter.passages, timings: &timings)
        // A quoted phrase ranks the passages holding it first; passages with its words apart
        // follow (when fewer than k hold it), ranked as if the quotes were not there.
        if !parsed.phrases.isEmpty, ranked.count < k {
            let seen = Set(ranked.map(\.id))
            let apart = try rank(parsed.relaxingPhrases(), query: query, k: k, mode: mode, documents: allowedDocuments,
                                 passages: filter.passages, timings: &timings)
            ranked += apart.filter { !seen.contains($0.id) }.prefix(k - ranked.count)
            if seen.isEmpty { notes.append(try missedPhrases(parsed, documents: allowedDocuments, passages: filter.passages, shown: !ranked.isEmpty)) }
        } else if ranked.isEmpty, !parsed.exclusions.isEmpty,
                  let excluded = try missedExclusions(parsed, documents: allowedDocuments, passages: filter.passages) {
            notes.append(excluded)
        }
        return Ranking(passages: ranked, terms: terms)
    }

    /// The hits of a ranking: each passage read with what a user sees of it (its snippet,
    /// location, speaker and link), found for that passage alone whatever its document's size.
    func hits(_ ranked: [RankedPassage], terms: [String]) throws -> [SearchHit] {
        let passages = try store.passages(ids: ranked.map(\.id))
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
                rank: index + 1, score: entry.score, bm25: entry.bm25, cosine: entry.cosine, weak: entry.score < Relevance.weakBelow, passageId: passage.id, documentId: passage.documentShortId ?? "",
                title: passage.documentTitle ?? "", sectionPath: passage.sectionPath, location: Location.describe(passage, at: spoken),
                uri: passage.documentURI ?? "", path: passage.documentPath, type: passage.documentType?.rawValue ?? "", kind: passage.kind,
                pageStart: passage.pageStart, pageEnd: passage.pageEnd, timeStart: passage.timeStart,
                timeEnd: passage.timeEnd, time: spoken, speaker: speaker, snippet: snippet.text,
                highlights: snippet.highlights, text: passage.text,
                keywordRank: entry.keywordRank, semanticRank: entry.semanticRank)
            hit.pageLabel = passage.pageLabel
            if links { hit.link = try PassageLink.link(for: passage, at: spoken, store: store) }
            return hit
        }
    }

    /// One passage of a ranking: its score (0…1, see `Relevance`), its BM25 and cosine where
    /// the keyword or the semantic ranking found it, and its ranks there.
    struct RankedPassage {
        var id: Int64
        var score: Double
        var bm25: Double?
        var cosine: Double?
        var keywordRank: Int?
        var semanticRank: Int?
    }

    /// One ranking of `parsed` in `mode`: passages, best first, at most k.
    private func rank(_ parsed: SearchQuery, query: String, k: Int, mode: SearchMode, documents allowedDocuments: Set<Int64>?,
                      passages onlyPassages: Set<Int64>?, timings: inout SearchTimings) throws -> [RankedPassage] {
        let depth = max(candidates, k)
        let (weights, evaluation) = (keywordWeights, keywordEvaluation)
        let keywordRanking: @Sendable (any LibraryBackend) throws -> [(id: Int64, score: Double)] = { backend in
            try backend.keywordMatches(parsed, limit: depth, documents: allowedDocuments, passages: onlyPassages, weights: weights,
                                       evaluation: evaluation)
        }
        func semanticRanking(_ timings: inout SearchTimings) throws -> (hits: [(id: Int64, score: Float)], vector: [Float], embedder: EmbedderInfo) {
            let embedder = try queryEmbedder.embedder()
            let text = parsed.text.isEmpty ? query : parsed.text
            let started = DispatchTime.now()
            let vector = try embedder.embed(text)
            timings.embedding += Self.seconds(since: started)
            // Phrases and exclusions hold in every mode: the vectors rank only the passages they leave.
            let hits = try store.nearestPassages(to: vector, k: depth, embedder: embedder.info, documents: allowedDocuments,
                                                 passages: onlyPassages, allowedBy: parsed, scan: vectorScan(to: vector, k: depth, embedder: embedder.info))
            return (hits, vector, embedder.info)
        }
        var keyword: [(id: Int64, score: Double)] = []
        var semantic: [(id: Int64, score: Float)] = []
        if mode == .hybrid, let reader = store.concurrentReader() {
            // A server's library ranks the words in a session of its own while this one embeds
            // the query and asks the vector index: the two halves take the longer one's time.
            let (ranked, meaning) = try ParallelWork.sideBySide({ () -> [(id: Int64, score: Double)]? in
                // A server at its connection limit (or one that refuses a second session): the
                // words are ranked in this session after the index, with the same hits.
                guard let backend = try? reader.open() else { return nil }
                return try keywordRanking(backend)
            }, { try semanticRanking(&timings) })
            let words = try ranked ?? keywordRanking(store)
            // An approximate index can miss a passage the exact scan ranks high (a question of a
            // few words, whose vector is sparse, strands its search in the wrong part of the
            // graph); the passages the words found are scored exactly beside its candidates, so
            // the fusion has the cosine the exact scan gives them (as a file's search has). A
            // search by meaning alone does not rank the words for this: on long questions over a
            // large library that ranking takes longer than the index (docs/benchmarks.md).
            let found = Set(meaning.hits.map(\.id))
            let missed = words.map(\.id).filter { !found.contains($0) }
            semantic = meaning.hits
            if !missed.isEmpty {
                semantic += try reader.cosines(missed, meaning.vector, meaning.embedder)
                semantic = Array(semantic.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }.prefix(depth))
            }
            keyword = words
        } else {
            if mode != .semantic { keyword = try keywordRanking(store) }
            if mode != .keyword { semantic = try semanticRanking(&timings).hits }
        }
        var found: [Int64: RankedPassage] = [:]
        for (rank, hit) in keyword.enumerated() {
            found[hit.id] = RankedPassage(id: hit.id, score: 0, bm25: hit.score, keywordRank: rank + 1)
        }
        for (rank, hit) in semantic.enumerated() {
            found[hit.id, default: RankedPassage(id: hit.id, score: 0)].cosine = Double(hit.score)
            found[hit.id]?.semanticRank = rank + 1
        }
        // A passage too short to answer anything (a name under a long section header, a
        // caption) is near its header in meaning: its semantic evidence counts in proportion
        // to its length, so that it cannot outrank the passages that say something.
        let short = mode == .keyword ? [:] : try store.shortPassages(semantic.map(\.id), under: Chunker.tinyTokens)
        // Each mode ranks by its own evidence (BM25, or the cosine of passages that are not
        // short), hybrid by the weighted sum of both on fixed curves, so that a score means the
        // same in every query (Relevance).
        let ranked: [RankedPassage] = found.values.map { passage in
            var passage = passage
            let stub = short[passage.id].map { Double(max($0, 1)) / Double(Chunker.tinyTokens) } ?? 1
            switch mode {
            case .keyword: passage.score = Relevance.keyword(passage.bm25 ?? 0)
            case .semantic: passage.score = stub * Relevance.semantic(passage.cosine ?? -1)
            case .hybrid: passage.score = Relevance.fused(bm25: passage.bm25, cosine: passage.cosine, semanticShare: stub,
                                                          keywordWeight: keywordWeight)
            }
            return passage
        }
        func order(_ passage: RankedPassage) -> (Double, Double) {
            switch mode {
            case .keyword: return (passage.bm25 ?? 0, 0)
            case .semantic, .hybrid: return (passage.score, passage.cosine ?? -1)
            }
        }
        return Array(ranked.sorted { order($0) != order($1) ? order($0) > order($1) : $0.id < $1.id }.prefix(k))
    }

    /// What to tell a user whose quoted phrases no passage holds (with the exclusions, within
    /// the filters): the phrase, the exclusion at fault when there is one, and what is shown.
    private func missedPhrases(_ parsed: SearchQuery, documents: Set<Int64>?, passages: Set<Int64>?, shown: Bool) throws -> String {
        let phrases = parsed.phrases.map { "\"\($0.joined(separator: " "))\"" }.joined(separator: " and ")
        let instead = shown ? "showing passages with its words apart" : "and none holds its words apart"
        var alone = parsed
        alone.exclusions = []
        alone.words = []
        if !parsed.exclusions.isEmpty, try !store.keywordMatches(alone, limit: 1, documents: documents, passages: passages, weights: keywordWeights, evaluation: keywordEvaluation).isEmpty {
            let excluded = parsed.exclusions.map { "\"\($0.joined(separator: " "))\"" }.joined(separator: " or ")
            return "every passage holding \(phrases) also holds \(excluded): \(instead)"
        }
        return "no passage holds \(phrases): \(instead)"
    }

    /// What to tell a user whose exclusions left nothing: the words they left out, when the
    /// query without them finds passages; nil when it finds none either.
    private func missedExclusions(_ parsed: SearchQuery, documents: Set<Int64>?, passages: Set<Int64>?) throws -> String? {
        var without = parsed
        without.exclusions = []
        let found = try store.keywordMatches(without, limit: 1, documents: documents, passages: passages, weights: keywordWeights, evaluation: keywordEvaluation)
        guard !found.isEmpty else { return nil }
        let excluded = parsed.exclusions.map { "\"\($0.joined(separator: " "))\"" }.joined(separator: " or ")
        return "every passage that matches also holds \(excluded), which the query leaves out"
    }

    /// The `k` passages nearest to `vector` in the whole library, as a semantic search ranks them.
    func nearest(to vector: [Float], k: Int, embedder: EmbedderInfo) throws -> [(id: Int64, score: Float)] {
        try store.nearestPassages(to: vector, k: k, embedder: embedder, documents: nil, passages: nil,
                                  allowedBy: SearchQuery(parsing: ""), scan: vectorScan(to: vector, k: k, embedder: embedder))
    }

    /// How a library that reads its vectors into this process finds the `k` nearest to `vector`
    /// among the passages it allows (`nearest`, with this searcher's cache).
    func vectorScan(to vector: [Float], k: Int, embedder: EmbedderInfo) -> VectorScan {
        let searcher = self
        return VectorScan { store, allowed in try searcher.nearest(in: store, to: vector, k: k, embedder: embedder, allowed: allowed) }
    }

    /// The `k` passages nearest to `vector`: the compact scan's best `rerankDepth(k)` rows,
    /// re-ranked by their exact float32 cosine. A library whose compact blocks are incomplete
    /// is scanned in float32. The scan reads the library's sidecar in place when it is current;
    /// else the first request of a searcher streams the scan from the library
    /// (`VectorCache.vectorsForSearch`), and later ones scan the vectors it then keeps.
    func nearest(in store: LibraryStore, to vector: [Float], k: Int, embedder: EmbedderInfo, allowed: IdBitmap?) throws -> [(id: Int64, score: Float)] {
        let keep = max(k, rerankDepth(k))
        var found: [(id: Int64, place: (block: Int64, slot: Int))] = []
        var loaded = try vectorCache.vectorsForSearch(store: store, embedder: embedder, request: request)
        if loaded == nil {
            if let streamed = try store.streamedCandidates(embedder: embedder, query: vector, keep: keep, allowed: allowed) {
                vectorCache.streamed(wroteSidecar: streamed.wroteSidecar)
                found = streamed.candidates.map { (id: $0.id, place: $0.place) }
            } else {
                loaded = try vectorCache.vectors(store: store, embedder: embedder)
            }
        }
        switch loaded {
        case .exact(let index)?:
            return index.nearest(to: vector, k: k, allowed: allowed)
        case .compact(let vectors)?:
            found = vectors.candidates(for: vector, keep: keep, allowed: allowed).map { (id: vectors.ids[$0.row], place: vectors.place(of: $0.row)) }
        case nil:
            break
        }
        let exact = try store.exactScores(places: found.map(\.place), query: vector)
        let ranked = zip(found, exact).map { (id: $0.0.id, score: $0.1) }
        return Array(ranked.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }.prefix(k))
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Scores scaled to 0…1 over the candidates (all 1 when they are equal): how `curriculum
    /// find` fuses its topic rankings.
    static func normalized(_ scores: [(Int64, Double)]) -> [(Int64, Double)] {
        guard let low = scores.map(\.1).min(), let high = scores.map(\.1).max(), high > low else {
            return scores.map { ($0.0, 1) }
        }
        return scores.map { ($0.0, ($0.1 - low) / (high - low)) }
    }

    /// For a transcript passage, the start of the timed sentence that holds the most query
    /// words (distinct words first): where a user should start listening.
    static func spokenAt(_ passage: Passage, terms: [String]) -> Double? {
        guard let start = passage.timeStart else { return nil }
        guard let timeline = passage.timeline, timeline.count > 1 else { return start }
        let chars = Array(passage.text)
        var distinct = [Set<String>](repeating: [], count: timeline.count)
        var total = [Int](repeating: 0, count: timeline.count)
        let prepared = terms.map(Snippet.Term.init)
        for word in Snippet.wordRanges(chars) {
            let text = String(chars[word.start..<word.end])
            guard Snippet.matches(text, prepared) else { continue }
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

    /// Why `filter` leaves no document to search, naming the filter at fault (`--source nothing
    /// matches no document`), or nil when some document passes it.
    public func emptyFilterReason(_ filter: SearchFilter) throws -> String? {
        guard let allowed = try documentIds(for: filter), allowed.isEmpty else { return nil }
        for source in filter.sources where try documentIds(for: SearchFilter(sources: [source])) == [] {
            return "--source \(source) matches no document"
        }
        let types = filter.types.map { "--type \($0)" }.joined(separator: ", ")
        if !filter.sources.isEmpty, try documentIds(for: SearchFilter(types: filter.types)) != [] {
            let sources = filter.sources.map { "--source \($0)" }.joined(separator: ", ")
            return "no document matches both \(sources) and \(types)"
        }
        return "\(types) matches no document"
    }

    func documentIds(for filter: SearchFilter) throws -> Set<Int64>? {
        guard !filter.sources.isEmpty || !filter.types.isEmpty else { return nil }
        var ids: Set<Int64>?
        if !filter.sources.isEmpty {
            ids = Set(try DocumentReferences(backend: store).documents(filter.sources).documents.map(\.id))
        }
        if !filter.types.isEmpty {
            let typed = try store.documentIds(types: filter.types)
            ids = ids.map { $0.intersection(typed) } ?? typed
        }
        return ids
    }
}
