import Foundation

/// A curriculum as `curriculum show` prints it; as JSON it is the whole stored record.
public struct CurriculumView: Encodable, Sendable {
    let curriculum: Curriculum
    public var name: String { curriculum.name }
    public var title: String { curriculum.title }
    public var units: [UnitView]
    /// Each source: its title, where it is, its type and licence.
    public var sources: [SourceView]
    public var modelName: String? { curriculum.modelName }
    /// The course's own description, where its source gives one.
    public var summary: String? { curriculum.summary }
    public var updated: String

    public func encode(to encoder: any Encoder) throws {
        try curriculum.encode(to: encoder)
    }

    init(_ curriculum: Curriculum) {
        self.curriculum = curriculum
        let documents = Dictionary(curriculum.sources.map { ($0.documentId, $0) }, uniquingKeysWith: { first, _ in first })
        let titles = Dictionary(curriculum.topics.map { ($0.stableId, $0.title) }, uniquingKeysWith: { first, _ in first })
        units = curriculum.units.map { unit in
            UnitView(id: unit.stableId, title: unit.title, topics: unit.topics.map { TopicView($0, documents: documents, titles: titles) })
        }
        sources = curriculum.sources.map { SourceView(title: $0.title, uri: $0.uri, type: $0.type.rawValue, licence: $0.licence) }
        updated = ISO8601DateFormatter().string(from: curriculum.modifiedAt)
    }
}

public struct SourceView: Encodable, Sendable {
    public var title: String
    public var uri: String
    public var type: String
    public var licence: String?
}

public struct UnitView: Encodable, Sendable {
    public var id: String
    public var title: String
    public var topics: [TopicView]
    public var studyMinutes: Int { topics.reduce(0) { $0 + $1.studyMinutes } }
}

public struct TopicView: Encodable, Sendable {
    public var id: String
    public var title: String
    public var summary: String
    /// Who wrote the summary: "source" (the source's own summary section), "offline" (sentences
    /// Lectern chose from the text) or "model".
    public var summaryOrigin: String
    public var studyMinutes: Int
    public var objectives: [String]
    public var keyTerms: [String]
    /// Where its passages come from: a document's title and the pages or times they span.
    public var sources: [String]
    /// "Title (“term”)" of each topic this one builds on, or "Title (the text refers to it: “…”)".
    public var prerequisites: [String]
    public var passages: Int

    init(_ topic: Topic, documents: [Int64: CurriculumSource], titles: [String: String]) {
        id = topic.stableId
        title = topic.title
        summary = topic.summary
        summaryOrigin = topic.summaryOrigin.rawValue
        studyMinutes = topic.studyMinutes
        objectives = topic.objectives.map(\.statement)
        keyTerms = topic.keyTerms.map(\.term)
        passages = topic.passages.count
        prerequisites = topic.prerequisites.map { "\(titles[$0.topicStableId] ?? $0.topicStableId) (\($0.because))" }
        var order: [Int64] = []
        var byDocument: [Int64: [Passage]] = [:]
        for passage in topic.passages {
            if byDocument[passage.documentId] == nil { order.append(passage.documentId) }
            byDocument[passage.documentId, default: []].append(passage)
        }
        sources = order.map { id in
            let passages = byDocument[id] ?? []
            var place = documents[id]?.title ?? "document \(id)"
            if let first = passages.compactMap(\.pageStart).min() {
                let last = passages.compactMap { $0.pageEnd ?? $0.pageStart }.max() ?? first
                place += last > first ? " pp.\(first)–\(last)" : " p.\(first)"
            } else if let start = passages.compactMap(\.timeStart).min() {
                let end = passages.compactMap { $0.timeEnd ?? $0.timeStart }.max() ?? start
                place += " " + TimeFormat.clock(start) + (end > start ? "–" + TimeFormat.clock(end) : "")
            }
            return place
        }
    }
}

/// A topic `curriculum find` found, best first.
public struct TopicHit: Encodable, Sendable {
    public var rank: Int
    public var score: Double
    public var curriculum: String
    public var unit: String
    public var id: String
    public var title: String
    public var studyMinutes: Int
    public var summary: String
    public var objectives: [String]
    public var keywordRank: Int?
    public var semanticRank: Int?
}

/// The curricula of a library, for the command line: listing, showing, removing, finding.
public enum Curricula {
    public static func list(_ store: LibraryStore) throws -> [CurriculumSummary] {
        try list(Library(store))
    }

    public static func list(_ library: Library) throws -> [CurriculumSummary] {
        try library.translated { try library.backend.curriculumSummaries() }
    }

    public static func view(named name: String, in store: LibraryStore) throws -> CurriculumView? {
        try view(named: name, in: Library(store))
    }

    public static func view(named name: String, in library: Library) throws -> CurriculumView? {
        try library.translated { try library.backend.curriculum(named: name).map(CurriculumView.init) }
    }

    public static func remove(named name: String, in store: LibraryStore) throws -> Bool {
        try remove(named: name, in: Library(store))
    }

    public static func remove(named name: String, in library: Library) throws -> Bool {
        try library.translated { try library.backend.removeCurriculum(named: name) }
    }

    /// The passages of a curriculum's topics (all its topics, or those whose ids are given):
    /// what `search --curriculum --topic` searches. Throws naming what names nothing.
    public static func passageIds(curriculum: String?, topics: [String], in store: LibraryStore) throws -> Set<Int64> {
        try passageIds(curriculum: curriculum, topics: topics, in: Library(store))
    }

    public static func passageIds(curriculum: String?, topics: [String], in library: Library) throws -> Set<Int64> {
        try library.translated { try passageIds(curriculum: curriculum, topics: topics, backend: library.backend) }
    }

    static func passageIds(curriculum: String?, topics: [String], backend store: any LibraryBackend) throws -> Set<Int64> {
        if let curriculum, try store.curriculumBuildKey(named: curriculum) == nil {
            throw LecternError(.invalidInput, curriculum, "no curriculum of this name (see `lectern curriculum list`)")
        }
        let topics = try TopicReferences(backend: store).stableIds(topics, curriculum: curriculum)
        guard let ids = try store.topicPassageIds(curriculum: curriculum, topicIds: topics) else {
            let where_ = curriculum.map { " in curriculum \($0)" } ?? ""
            throw LecternError(.invalidInput, topics.joined(separator: ", "), "no such topic\(where_) (see `lectern curriculum show`)")
        }
        return Set(ids)
    }

    /// Topics for a question, ranked like `search` ranks passages: BM25 over their titles,
    /// objectives, key terms and summaries fused with the similarity of their vectors.
    public static func find(_ query: String, curriculum: String?, k: Int, mode: SearchMode = .hybrid, in store: LibraryStore,
                            embedder: any Embedder) throws -> [TopicHit] {
        try find(query, curriculum: curriculum, k: k, mode: mode, in: Library(store), embedder: embedder)
    }

    public static func find(_ query: String, curriculum: String?, k: Int, mode: SearchMode = .hybrid, in library: Library,
                            embedder: any Embedder) throws -> [TopicHit] {
        try library.translated { try find(query, curriculum: curriculum, k: k, mode: mode, backend: library.backend, embedder: embedder) }
    }

    static func find(_ query: String, curriculum: String?, k: Int, mode: SearchMode, backend store: any LibraryBackend,
                     embedder: any Embedder) throws -> [TopicHit] {
        let parsed = SearchQuery(parsing: query)
        guard !parsed.isEmpty else { throw LecternError(.invalidInput, "query", "'\(query)' has no words to search for") }
        guard let allowed = try store.topicRowIds(curriculum: curriculum) else {
            throw LecternError(.invalidInput, curriculum ?? "", "no curriculum of this name (see `lectern curriculum list`)")
        }
        let searcher = Searcher(library: Library(backend: store), embedder: embedder)
        let depth = max(searcher.candidates, k)
        let keyword = mode == .semantic ? [] : try store.topicKeywordMatches(parsed, limit: depth, curriculum: curriculum)
        var semantic: [(id: Int64, score: Float)] = []
        if mode != .keyword {
            let index = try store.topicVectorIndex(for: embedder.info)
            if index.count > 0 { semantic = index.nearest(to: try embedder.embed(parsed.text.isEmpty ? query : parsed.text), k: depth, allowed: IdBitmap(allowed)) }
        }
        var scores: [Int64: Double] = [:]
        switch mode {
        case .keyword:
            for hit in keyword { scores[hit.id] = hit.score }
        case .semantic:
            for hit in semantic { scores[hit.id] = Double(hit.score) }
        case .hybrid:
            // As `search` fuses them: min-max normalised scores, BM25 weighted by `keywordWeight`.
            for (id, score) in Searcher.normalized(keyword.map { ($0.id, $0.score) }) { scores[id, default: 0] += searcher.keywordWeight * score }
            for (id, score) in Searcher.normalized(semantic.map { ($0.id, Double($0.score)) }) { scores[id, default: 0] += (1 - searcher.keywordWeight) * score }
        }
        let ranked = scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(k)
        let keywordRanks = Dictionary(keyword.enumerated().map { ($1.id, $0 + 1) }, uniquingKeysWith: { first, _ in first })
        let semanticRanks = Dictionary(semantic.enumerated().map { ($1.id, $0 + 1) }, uniquingKeysWith: { first, _ in first })
        let topics = try store.topicsWithPlace(rowIds: ranked.map(\.key))
        return zip(ranked, topics).enumerated().map { index, pair in
            let ((id, score), found) = pair
            return TopicHit(rank: index + 1, score: score, curriculum: found.curriculum, unit: found.unit, id: found.topic.stableId,
                            title: found.topic.title, studyMinutes: found.topic.studyMinutes, summary: found.topic.summary,
                            objectives: found.topic.objectives.map(\.statement), keywordRank: keywordRanks[id], semanticRank: semanticRanks[id])
        }
    }
}
