import Foundation

/// "Builds on" links the author states: a topic whose text points back to an earlier topic
/// links to it, the reference as its reason. Two kinds of pointer count:
///
/// - the source's cross-references (an OpenStax module's `<link document="m00025">the chapter on
///   logic and reasoning</link>`, kept by the reader on its block), resolved to the topic built
///   from that module;
/// - the text's own "as Chapter 1 explained", "discussed in Section 2.3", "recall from the
///   previous section", resolved by the numbers the book gives its chapters (units) and sections
///   (topics) in the same document.
///
/// Only a pointer to an earlier topic links (a forward one, "the chapter on metaphysics covers
/// this", is no prerequisite), and only one the sentence presents as what the reader has met
/// ("as explained in", "recall", "the previous chapter examined"); a pointer to further reading
/// ("learn more in", "see … for more on") is a passing mention, and one to a point of comparison
/// ("similar to that reached by Daoism, as explored in …") an aside; nor is a pointer to the
/// course's introduction. These rules were chosen on the dev half of the labelled references in
/// eval/prerequisites.
enum AuthorReferences {
    /// At most this many reference links a topic (besides its term links).
    static let limit = 3

    /// Words that present a reference as further reading, not as ground the reader stands on.
    static let furtherReading = [
        "learn more", "read more", "more on", "for more", "more about", "greater detail", "greater depth", "deeper",
        "to learn", "visit", "explore more",
    ]

    /// Words that make a reference a point of comparison, an aside the topic is understood
    /// without ("Stoicism reached a conclusion similar to that reached by Daoism, as explored in
    /// the chapter on early philosophy"): the start of a word of the sentence.
    static let comparison = ["similar", "resembl", "parallel", "analog", "akin", "unlike", "compar"]

    /// Words that present a reference as what the reader has already met ("as Chapter 1
    /// explained", "discussed in", "recall from", "the previous chapter examined"): the start of
    /// a word of the sentence.
    static let metBefore = [
        "discuss", "explain", "explor", "describ", "cover", "introduc", "consider", "examin", "recall", "saw", "seen",
        "learned", "mention", "noted", "previous", "earlier", "opening",
    ]

    /// The links of every topic that has any, keyed by the topic's stable id. `topics` in course
    /// order; `units` their unit indices, `unitTitles` the units' titles (by index); `blocks`:
    /// each document's cross-reference blocks (`LibraryStore.crossReferenceBlocks`).
    static func links(for topics: [Topic], units: [Int], unitTitles: [String], blocks: [Int64: [Block]]) -> [String: [TopicLink]] {
        var found: [[(target: Int, words: String)]] = Array(repeating: [], count: topics.count)
        // Where each section of each document went: the first topic holding a passage of it.
        var sectionTopic: [Int64: [[String]: Int]] = [:]
        for (index, topic) in topics.enumerated() {
            for passage in topic.passages where sectionTopic[passage.documentId]?[passage.sectionPath] == nil {
                sectionTopic[passage.documentId, default: [:]][passage.sectionPath] = index
            }
        }
        func firstTopic(document: Int64, under path: [String]) -> Int? {
            topics.indices.first { index in
                topics[index].passages.contains { $0.documentId == document && $0.sectionPath.starts(with: path) }
            }
        }
        // The topic holding a block: the one with a passage of its section, else of the nearest
        // section above it that is not a whole chapter (a module's review questions, left out
        // of its topic, still belong to the module).
        func topic(document: Int64, path: [String]) -> Int? {
            guard let sections = sectionTopic[document] else { return nil }
            var path = path
            while !path.isEmpty {
                if let index = sections[path] { return index }
                if path.count >= 2, let index = firstTopic(document: document, under: path) { return index }
                path.removeLast()
            }
            return nil
        }

        // The source's cross-references.
        for document in blocks.keys.sorted() {
            let documentBlocks = blocks[document] ?? []
            var modulePath: [String: [String]] = [:]
            for block in documentBlocks where block.kind == .heading {
                guard let module = block.attributes["module"] else { continue }
                if let known = modulePath[module], known.count <= block.sectionPath.count { continue }
                modulePath[module] = block.sectionPath
            }
            var moduleTopic: [String: Int] = [:]
            for block in documentBlocks {
                guard let encoded = block.attributes[CrossReference.attribute],
                      let source = topic(document: document, path: block.sectionPath) else { continue }
                let sentences = SentenceSplitter.split(block.text).map(\.text)
                for reference in CrossReference.decode(encoded) {
                    guard let path = modulePath[reference.target] else { continue }
                    if moduleTopic[reference.target] == nil { moduleTopic[reference.target] = firstTopic(document: document, under: path) ?? -1 }
                    guard let target = moduleTopic[reference.target], target >= 0, target < source else { continue }
                    let sentence = sentences.first { $0.contains(reference.text) } ?? block.text
                    guard pointsBack(sentence) else { continue }
                    found[source].append((target, reference.text))
                }
            }
        }

        // The text's own references to numbered chapters and sections, and to the previous one.
        for (index, topic) in topics.enumerated() {
            for passage in topic.passages where passage.kind != .glossary {
                for sentence in SentenceSplitter.split(passage.text).map(\.text) {
                    for mention in numberedMentions(in: sentence) {
                        guard let target = resolve(mention, from: index, document: passage.documentId, topics: topics, units: units,
                                                   unitTitles: unitTitles),
                              target < index, pointsBack(sentence) else { continue }
                        found[index].append((target, mention.words))
                    }
                }
            }
        }

        var result: [String: [TopicLink]] = [:]
        for (index, references) in found.enumerated() where !references.isEmpty {
            var links: [TopicLink] = []
            // The course's introduction is where every learner starts: a pointer back to it says
            // nothing about what this topic needs (the dev half: 2 of 6 such pointers needed).
            for reference in references where links.count < limit && reference.target != index
                && !(reference.target == 0 && isIntroduction(topics[0])) {
                let target = topics[reference.target].stableId
                if !links.contains(where: { $0.topicStableId == target }) {
                    links.append(TopicLink(topicStableId: target, term: reference.words, reason: .reference))
                }
            }
            if !links.isEmpty { result[topics[index].stableId] = links }
        }
        return result
    }

    /// A unit's or the course's introduction ("Introduction: Logic and Reasoning").
    static func isIntroduction(_ topic: Topic) -> Bool {
        CurriculumOutline.normalised(topic.title).hasPrefix("introduction")
    }

    /// Whether a sentence holding a reference presents it as ground already covered, not as
    /// further reading nor as a point of comparison.
    static func pointsBack(_ sentence: String) -> Bool {
        let folded = " " + sentence.lowercased().replacingOccurrences(of: "’", with: "'") + " "
        if furtherReading.contains(where: { folded.contains($0) }) { return false }
        let words = WordTokenizer.words(sentence).map { $0.lowercased() }
        if words.contains(where: { word in comparison.contains { word.hasPrefix($0) } }) { return false }
        return words.contains { word in metBefore.contains { word.hasPrefix($0) } }
    }

    /// A chapter or section the text names: by number ("Chapter 3", "Section 2.1") or as the
    /// one before ("the previous section").
    struct Mention: Equatable {
        enum Kind: Equatable { case chapter, section }
        var kind: Kind
        /// The number as written ("3", "2.1"); nil for "the previous …".
        var number: String?
        var words: String
    }

    /// "Chapter 3", "Section 2.1", "the previous chapter": not a chapter of another work
    /// ("Book II, Chapter 7", "Chapter 4 of the Tao Te Ching").
    static func numberedMentions(in sentence: String) -> [Mention] {
        var mentions: [Mention] = []
        let text = sentence as NSString
        let range = NSRange(location: 0, length: text.length)
        for match in numbered.matches(in: sentence, range: range) {
            let words = text.substring(with: match.range)
            let before = text.substring(to: match.range.location)
            let after = text.substring(from: match.range.location + match.range.length)
            // Another work's division: "Book II, Chapter 7", "Chapter 4 of the Tao Te Ching", "§".
            if before.range(of: #"(book|part|volume|§)\s*[\dIVXLC]*\s*,?\s*$"#, options: [.regularExpression, .caseInsensitive]) != nil { continue }
            if after.range(of: #"^\s*(,\s*)?(of|in)\s+(the\s+)?[A-Z]"#, options: .regularExpression) != nil { continue }
            let kind: Mention.Kind = words.lowercased().hasPrefix("chapter") ? .chapter : .section
            let number = text.substring(with: match.range(at: 2))
            mentions.append(Mention(kind: kind, number: number, words: words))
        }
        for match in previous.matches(in: sentence, range: range) {
            let words = text.substring(with: match.range)
            mentions.append(Mention(kind: words.lowercased().hasSuffix("chapter") ? .chapter : .section, number: nil, words: words))
        }
        return mentions
    }

    // The patterns are constant and valid: `try!` cannot fail.
    static let numbered = try! NSRegularExpression(pattern: #"\b(Chapter|Section|chapter|section)\s+(\d+(?:\.\d+)?)\b"#)
    static let previous = try! NSRegularExpression(pattern: #"\b(?:previous|preceding|last) (?:chapter|section)\b(?!s)"#, options: .caseInsensitive)

    /// The topic a mention names, in the same document: a chapter is its unit's first topic, a
    /// section the topic numbered so; "the previous section" the topic before in the same
    /// unit, "the previous chapter" the unit before's first topic.
    static func resolve(_ mention: Mention, from index: Int, document: Int64, topics: [Topic], units: [Int],
                        unitTitles: [String]) -> Int? {
        let candidates = topics.indices.filter { topics[$0].passages.contains { $0.documentId == document } }
        switch (mention.kind, mention.number) {
        case (.chapter, let number?):
            return candidates.first { unitTitles.indices.contains(units[$0]) && unitTitles[units[$0]].hasPrefix(number + " ") }
        case (.section, let number?):
            return candidates.first { topics[$0].title.hasPrefix(number + " ") }
        case (.section, nil):
            // A unit's introduction is no section: "the previous section" in the topic after it
            // is one of that topic's own sections.
            return candidates.last { $0 < index && units[$0] == units[index] }.flatMap { isIntroduction(topics[$0]) ? nil : $0 }
        case (.chapter, nil):
            guard let before = candidates.last(where: { units[$0] < units[index] }) else { return nil }
            return candidates.first { units[$0] == units[before] }
        }
    }
}
