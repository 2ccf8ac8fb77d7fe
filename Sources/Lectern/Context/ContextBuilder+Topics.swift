import Foundation

/// Contexts for a curriculum's topic: its place in the course, objectives, links and key terms,
/// then its passages and its prerequisites' ranked by hybrid search for the question (or, with
/// none, for the topic's own title and objectives).
extension ContextBuilder {
    /// A topic with the shape of its course: the curriculum's units and topics (titles, links,
    /// the ids of their passages) without reading any passage but the topic's own, so that a
    /// context costs the same in a course of ten topics or of a thousand-passage book.
    struct TopicPlace {
        /// The curriculum's units, topics and sources; its topics hold no passages.
        var outline: Curriculum
        /// The topic, with its passages.
        var topic: Topic
        /// Each topic's passage ids, by stable id.
        var passageIds: [String: [Int64]]
    }

    func topic(_ id: String, curriculum name: String?) throws -> TopicPlace {
        // A whole stable id (what `curriculum find` gives) is looked up alone; a prefix, or an id
        // outside the curriculum named, gets TopicReferences' answer and its errors.
        let curriculumName: String, topic: Topic
        if let found = try store.topic(stableId: id), name == nil || name == found.curriculum {
            (curriculumName, topic) = found
        } else {
            let (curriculum, named) = try TopicReferences(backend: store).topic(id, curriculum: name)
            (curriculumName, topic) = (curriculum.name, named)
        }
        guard let records = try store.curriculumRecords(named: curriculumName) else {
            throw LecternError(.notFound, id, "no topic with this id (see `lectern curriculum show`)")
        }
        let passageIds = Dictionary(records.units.flatMap(\.topics).map { ($0.topic.stableId, $0.passages.map(\.passageId)) },
                                    uniquingKeysWith: { first, _ in first })
        return TopicPlace(outline: Curriculum(records, passages: [:]), topic: topic, passageIds: passageIds)
    }

    /// The topic that best answers `query`, when the library has curricula (nil without).
    func bestTopic(for query: String, curriculum name: String?) throws -> TopicPlace? {
        guard !(try store.curriculumSummaries()).isEmpty else {
            if let name { throw LecternError(.invalidInput, name, "no curriculum of this name: this library has none (`lectern curriculum build NAME` makes one)") }
            return nil
        }
        let embedder = try session.searcher.queryEmbedder.embedder()
        guard let hit = try Curricula.find(query, curriculum: name, k: 1, mode: .hybrid, backend: store, embedder: embedder).first else { return nil }
        return try topic(hit.id, curriculum: hit.curriculum)
    }

    /// The context of a topic: its description, then its passages and its prerequisites' passages
    /// ranked for `query` (the topic's title and objectives when there is none).
    func topicContext(_ place: TopicPlace, query: String?, request: ContextRequest) throws -> TutoringContext {
        let curriculum = place.outline, topic = place.topic
        // A source changed since the build leaves its topics' passages gone: refused, never a context short of them.
        try CurriculumFreshness(backend: store).requireCurrent(curriculum)
        let topics = curriculum.topics
        let byId = Dictionary(topics.map { ($0.stableId, $0) }, uniquingKeysWith: { first, _ in first })
        let position = (topics.firstIndex { $0.stableId == topic.stableId } ?? 0) + 1
        let unit = curriculum.units.first { $0.topics.contains { $0.stableId == topic.stableId } }?.title ?? ""
        let order = Dictionary(topics.enumerated().map { ($1.stableId, $0) }, uniquingKeysWith: { first, _ in first })
        // What comes next: the next topic in reading order, then the later topics that build on
        // this one, in course order (an earlier topic is never "next").
        var next: [ContextTopicLink] = []
        if position < topics.count { next.append(ContextTopicLink(id: topics[position].stableId, title: topics[position].title)) }
        for later in topics[min(position, topics.count)...] where later.prerequisites.contains(where: { $0.topicStableId == topic.stableId }) {
            if !next.contains(where: { $0.id == later.stableId }) { next.append(ContextTopicLink(id: later.stableId, title: later.title)) }
        }
        let described = ContextTopic(
            id: topic.stableId, title: topic.title, curriculum: curriculum.name, curriculumTitle: curriculum.title, unit: unit,
            position: position, topicCount: topics.count, studyMinutes: topic.studyMinutes,
            objectives: topic.objectives.map(\.statement),
            // What it builds on: earlier topics only, in course order.
            prerequisites: topic.prerequisites.filter { (order[$0.topicStableId] ?? Int.max) < position - 1 }
                .sorted { (order[$0.topicStableId] ?? 0) < (order[$1.topicStableId] ?? 0) }
                .map {
                    ContextTopicLink(id: $0.topicStableId, title: byId[$0.topicStableId]?.title ?? $0.topicStableId,
                                     term: $0.reason == .term ? $0.term : nil, reference: $0.reason == .reference ? $0.term : nil)
                },
            next: Array(next.prefix(5)),
            keyTerms: topic.keyTerms.map { ContextKeyTerm(term: $0.term, definition: $0.definition) },
            summary: topic.summary.isEmpty ? nil : topic.summary)

        // The objectives are listed once, above: their passage is not a passage to quote again.
        let own = Set(topic.passages.filter { $0.kind != .objective || topic.objectives.isEmpty }.map(\.id))
        var allowed = own
        for link in topic.prerequisites { allowed.formUnion(place.passageIds[link.topicStableId] ?? []) }
        let question = query ?? ([topic.title] + topic.objectives.map(\.statement)).joined(separator: " ")
        let packer = ContextPacker(counter: counter)
        var ranked: RankedHits?
        if !allowed.isEmpty {
            var filter = request.filter
            filter.passages = allowed
            ranked = try session.ranked(question, k: max(Self.depth(budget: request.budget), allowed.count), mode: .hybrid, filter: filter)
        }
        guard let ranked, ranked.count > 0 else {
            // A filter (`--type pdf`) that none of the topic's passages, nor its prerequisites',
            // pass: the library's passages that do and answer the question, as search finds them.
            var candidates: [ContextPassage] = []
            if let query, !request.filter.isEmpty {
                candidates = try session.search(query, k: Self.depth(budget: request.budget), mode: .hybrid, filter: request.filter)
                    .map { ContextPassage($0, from: .search) }
            }
            return try packer.pack(query: query, topic: described, candidates: candidates, budget: request.budget)
        }
        // The topic's own passages before its prerequisites', each group in the search's order;
        // a hit is read only when the packer comes to it.
        let ownFirst = (0..<ranked.count).filter { own.contains(ranked.passageId($0)) } + (0..<ranked.count).filter { !own.contains(ranked.passageId($0)) }
        let hits = ranked.reordered(ownFirst)
        // A question that chose this topic itself (no topic named), with room to spare after the
        // topic's passages and its prerequisites' (a small topic, a large budget): the library's
        // other passages that answer it, after them: those scoring at least half the best hit's
        // score (an absolute floor would leave out every hit of a hashing-embedder library).
        var more: RankedHits?
        if let query, request.topicId == nil {
            let found = try session.ranked(query, k: Self.depth(budget: request.budget), mode: .hybrid, filter: request.filter)
            let floor = (found.ranking.passages.first?.score ?? 0) / 2
            more = found.reordered((0..<found.count).filter {
                !allowed.contains(found.passageId($0)) && found.ranking.passages[$0].score >= floor
            })
        }
        return try packer.pack(query: query, topic: described, candidateCount: hits.count + (more?.count ?? 0), candidate: { index in
            if index >= hits.count, let more { return ContextPassage(try more.hit(index - hits.count), from: .search) }
            let hit = try hits.hit(index)
            return ContextPassage(hit, from: own.contains(hit.passageId) ? .topic : .prerequisite)
        }, budget: request.budget)
    }
}
