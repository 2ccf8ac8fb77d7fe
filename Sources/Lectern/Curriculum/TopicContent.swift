import Foundation

/// The content methods the builder calls (segmentation, merge similarity, key terms,
/// objectives, titles, study time, prerequisites), in one place: the builder depends on these
/// names only. Until the `topics` branch (Curriculum/Content) is merged, each holds a small
/// stand-in of its own; at the merge each body becomes one call to that branch's function.
enum TopicContent {
    /// Where the subject shifts in consecutive passages: ranges of passage indices, in order.
    static func segments(vectors: [[Float]], tokenCounts: [Int]) -> [Range<Int>] {
        let count = vectors.count
        guard count > 3 else { return count == 0 ? [] : [0..<count] }
        // Similarity of the two passages before each gap with the two after it; cut at the
        // deepest valleys, keeping each segment at least ~400 tokens.
        func mean(_ range: Range<Int>) -> [Float] {
            TopicVectors.mean(range.map { vectors[$0] }, dimension: vectors[0].count) ?? vectors[range.lowerBound]
        }
        var gaps: [(index: Int, similarity: Float)] = []
        for gap in 1..<count {
            let a = mean(max(0, gap - 2)..<gap), b = mean(gap..<min(count, gap + 2))
            gaps.append((gap, zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }))
        }
        let similarities = gaps.map(\.similarity)
        let average = similarities.reduce(0, +) / Float(similarities.count)
        let spread = (similarities.map { ($0 - average) * ($0 - average) }.reduce(0, +) / Float(similarities.count)).squareRoot()
        var cuts: [Int] = []
        let tokens = tokenCounts.reduce(0, +)
        for gap in gaps.sorted(by: { $0.similarity < $1.similarity }) where gap.similarity < average - spread / 2 {
            let candidate = (cuts + [gap.index]).sorted()
            let bounds = [0] + candidate + [count]
            let sizes = zip(bounds, bounds.dropFirst()).map { tokenCounts[$0..<$1].reduce(0, +) }
            if sizes.allSatisfy({ $0 >= min(400, tokens / 3) }) { cuts = candidate }
        }
        let bounds = [0] + cuts + [count]
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// Similarity of two topics' passage vectors (mean against mean), and the level above which
    /// two topics of different sources are one.
    static func similarity(_ a: [[Float]], _ b: [[Float]]) -> Float {
        guard let first = a.first, let x = TopicVectors.mean(a, dimension: first.count),
              let y = TopicVectors.mean(b, dimension: first.count) else { return 0 }
        return zip(x, y).reduce(0) { $0 + $1.0 * $1.1 }
    }

    static var mergeThreshold: Float { 0.62 }

    /// Terms with their definitions: a glossary's own entries (`Term: meaning`).
    static func keyTerms(in passages: [TopicPassage]) -> [KeyTerm] {
        var terms: [KeyTerm] = []
        var seen: Set<String> = []
        for passage in passages where passage.kind == .glossary {
            for line in passage.text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let term = line[..<colon].trimmingCharacters(in: .whitespaces)
                let meaning = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard !term.isEmpty, term.split(separator: " ").count <= 5, !meaning.isEmpty,
                      seen.insert(term.lowercased()).inserted else { continue }
                terms.append(KeyTerm(term: term, definition: meaning, origin: .source, passageId: passage.passageId))
            }
        }
        return terms
    }

    /// The source's own learning objectives (an OpenStax module's list).
    static func sourceObjectives(in passages: [TopicPassage]) -> [String] {
        passages.filter { $0.kind == .objective }.flatMap { $0.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty && !$0.lowercased().hasPrefix("by the end of this") }
    }

    /// Objectives written offline from a topic's title, headings and key terms.
    static func offlineObjectives(title: String, headings: [String], keyTerms: [KeyTerm], passages: [TopicPassage]) -> [String] {
        var objectives = ["Explain \(title)."]
        objectives += keyTerms.prefix(3).map { "Define \($0.term)." }
        return objectives
    }

    /// A title from the key phrases of an untitled stretch of text.
    static func title(for passages: [TopicPassage], background: [TopicPassage]) -> String {
        let sentences = ExtractiveSummarizer.sentences(passages.map(\.text))
        let phrase = ExtractiveSummarizer.keyPhrases(sentences, limit: 1).first ?? passages.first?.sectionPath.last ?? "Untitled"
        return phrase.prefix(1).uppercased() + phrase.dropFirst()
    }

    /// Whole minutes to study `words` words.
    static func studyMinutes(words: Int) -> Int {
        max(1, Int((Double(words) / 200).rounded(.up)))
    }

    /// Each topic's prerequisites, by its stable id: topics that define a key term it uses.
    static func prerequisites(for topics: [Topic]) -> [String: [TopicLink]] {
        var definedBy: [String: String] = [:]
        for topic in topics {
            for term in topic.keyTerms where definedBy[term.term.lowercased()] == nil { definedBy[term.term.lowercased()] = topic.stableId }
        }
        var links: [String: [TopicLink]] = [:]
        for topic in topics {
            let own = Set(topic.keyTerms.map { $0.term.lowercased() })
            let words = " " + topic.passages.map(\.text).joined(separator: " ").lowercased() + " "
            for (term, owner) in definedBy.sorted(by: { $0.key < $1.key })
            where owner != topic.stableId && !own.contains(term) && words.contains(" \(term) ") {
                links[topic.stableId, default: []].append(TopicLink(topicStableId: owner, term: term))
                if links[topic.stableId]!.count == 3 { break }
            }
        }
        return links
    }
}
