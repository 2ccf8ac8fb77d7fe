import Foundation

/// Contexts for a curriculum's topic: its place in the course, objectives, links and key terms,
/// then its passages and its prerequisites' ranked by hybrid search for the question (or, with
/// none, for the topic's own title and objectives).
extension ContextBuilder {
    func topic(_ id: String, curriculum name: String?) throws -> (Curriculum, Topic) {
        try TopicReferences(store: store).topic(id, curriculum: name)
    }

    /// The topic that best answers `query`, when the library has curricula (nil without).
    func bestTopic(for query: String, curriculum name: String?) throws -> (Curriculum, Topic)? {
        guard !(try store.curriculumSummaries()).isEmpty else {
            if let name { throw LecternError(.invalidInput, name, "no curriculum of this name: this library has none (`lectern curriculum build NAME` makes one)") }
            return nil
        }
        let embedder = try session.searcher.queryEmbedder.embedder()
        guard let hit = try Curricula.find(query, curriculum: name, k: 1, in: store, embedder: embedder).first else { return nil }
        return try topic(hit.id, curriculum: hit.curriculum)
    }

    /// The context of `topic`: its description, then its passages and its prerequisites' passages
    /// ranked for `query` (the topic's title and objectives when there is none).
    func topicContext(_ curriculum: Curriculum, _ topic: Topic, query: String?, request: ContextRequest) throws -> TutoringContext {
        try CurriculumFreshness(store: store).requireCurrent(curriculum)
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
                .map { ContextTopicLink(id: $0.topicStableId, title: byId[$0.topicStableId]?.title ?? $0.topicStableId, term: $0.term) },
            next: Array(next.prefix(5)),
            keyTerms: topic.keyTerms.map { ContextKeyTerm(term: $0.term, definition: $0.definition) },
            summary: topic.summary.isEmpty ? nil : topic.summary)

        // The objectives are listed once, above: their passage is not a passage to quote again.
        let own = Set(topic.passages.filter { $0.kind != .objective || topic.objectives.isEmpty }.map(\.passageId))
        var allowed = own
        for link in topic.prerequisites { allowed.formUnion(byId[link.topicStableId]?.passages.map(\.passageId) ?? []) }
        let question = query ?? ([topic.title] + topic.objectives.map(\.statement)).joined(separator: " ")
        var candidates: [ContextPassage] = []
        if !allowed.isEmpty {
            var filter = request.filter
            filter.passages = allowed
            let hits = try session.search(question, k: max(Self.depth(budget: request.budget), allowed.count), mode: .hybrid, filter: filter)
            // The topic's own passages before its prerequisites', each group in the search's order.
            candidates = hits.filter { own.contains($0.passageId) }.map { ContextPassage($0, from: .topic) }
                + hits.filter { !own.contains($0.passageId) }.map { ContextPassage($0, from: .prerequisite) }
        }
        // A filter (`--type pdf`) that none of the topic's passages, nor its prerequisites',
        // pass: the library's passages that do and answer the question, as search finds them.
        if candidates.isEmpty, let query, !request.filter.isEmpty {
            candidates = try session.search(query, k: Self.depth(budget: request.budget), mode: .hybrid, filter: request.filter)
                .map { ContextPassage($0, from: .search) }
        }
        return try ContextPacker(counter: counter).pack(query: query, topic: described, candidates: candidates, budget: request.budget)
    }
}
