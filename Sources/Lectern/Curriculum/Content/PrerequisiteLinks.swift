/// "This topic builds on that one": a topic that uses a key term another topic defines links
/// to it. The links are recorded, shown and exported; the sources' order is never changed.
enum PrerequisiteLinks {
    /// At most this many links a topic: the few terms it leans on most.
    static let limit = 3

    /// The links of every topic that has any, keyed by the using topic's stable id. A term is
    /// linked to the first topic (in reading order) that defines it; a topic that defines a term
    /// itself needs no link for it; each defining topic appears once, under its most-used term.
    static func links(for topics: [Topic]) -> [String: [TopicLink]] {
        // Each term's stems, and the first topic that defines it.
        var definer: [[String]: (topic: String, term: String)] = [:]
        var order: [[String]] = []
        for topic in topics {
            for keyTerm in topic.keyTerms {
                let stems = TermMatcher.stems(keyTerm.term)
                // A one-word term of one or two letters matches too much to mean anything.
                guard !stems.isEmpty, stems.joined().count > 2, definer[stems] == nil else { continue }
                definer[stems] = (topic.stableId, keyTerm.term)
                order.append(stems)
            }
        }
        // A term nearly every topic uses ("philosophy" in a philosophy book) is the course's
        // subject, not a prerequisite of any one topic.
        let texts = topics.map { topic in topic.passages.filter { $0.kind != .glossary }.flatMap { TermMatcher.stems($0.text) } }
        if topics.count >= 4 {
            let common = order.filter { stems in texts.filter { TermMatcher.count(stems, in: $0) > 0 }.count * 2 > topics.count }
            for stems in common { definer[stems] = nil }
        }
        var result: [String: [TopicLink]] = [:]
        for (position, topic) in topics.enumerated() {
            let own = Set(topic.keyTerms.map { TermMatcher.stems($0.term) })
            // The topic's own text, without its glossary (which restates only its own terms).
            let words = texts[position]
            var uses: [(target: String, term: String, count: Int, rank: Int)] = []
            for (rank, stems) in order.enumerated() {
                guard let defined = definer[stems], defined.topic != topic.stableId, !own.contains(stems) else { continue }
                let count = TermMatcher.count(stems, in: words)
                if count > 0 { uses.append((defined.topic, defined.term, count, rank)) }
            }
            uses.sort { $0.count != $1.count ? $0.count > $1.count : $0.rank < $1.rank }
            var links: [TopicLink] = []
            for use in uses where links.count < limit && !links.contains(where: { $0.topicStableId == use.target }) {
                links.append(TopicLink(topicStableId: use.target, term: use.term))
            }
            if !links.isEmpty { result[topic.stableId] = links }
        }
        return result
    }
}
