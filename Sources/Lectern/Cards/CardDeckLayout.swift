import Foundation

/// Where a curriculum's cards go in Anki: the deck tree `Course::Unit::Topic`, each deck's
/// fixed id and its description with the attribution and licence of the sources it draws on.
struct CardDeckLayout: Sendable {
    struct Deck: Sendable, Equatable {
        var id: Int64
        /// Anki's full name, levels joined by `::`.
        var name: String
        var description: String
    }

    let curriculumStableId: String
    let course: Deck
    /// Every deck: the course, units, topics (parents before children).
    let decks: [Deck]
    let topicDecks: [String: Deck]

    init(curriculum: Curriculum) {
        curriculumStableId = curriculum.stableId
        let context = CardDeckContext(curriculum: curriculum)
        let courseName = Self.level(curriculum.title)
        course = Deck(id: CardIdentity.deckId(curriculum: curriculum.stableId, path: []), name: courseName,
                      description: Self.attribution(curriculum.sources))
        var decks = [course]
        var seen: Set<String> = [courseName]
        var topicDecks: [String: Deck] = [:]
        for topic in curriculum.topics {
            let path = context.deckPath(topicStableId: topic.stableId, topicTitle: topic.title).map(Self.level)
            for depth in 1...path.count {
                let name = ([courseName] + path.prefix(depth)).joined(separator: "::")
                let isTopic = depth == path.count
                let used = Set(topic.passages.map(\.documentId))
                let sources = curriculum.sources.filter { used.contains($0.documentId) }
                let deck = Deck(id: CardIdentity.deckId(curriculum: curriculum.stableId, path: Array(path.prefix(depth))),
                                name: name, description: isTopic ? Self.attribution(sources) : "")
                if isTopic { topicDecks[topic.stableId] = deck }
                if seen.insert(name).inserted { decks.append(deck) }
            }
        }
        self.decks = decks
        self.topicDecks = topicDecks
    }

    /// A deck for a topic the curriculum no longer has (its cards are still stored).
    func deck(topicStableId: String) -> Deck { topicDecks[topicStableId] ?? course }

    /// A deck name level: Anki splits names at `::`.
    static func level(_ title: String) -> String {
        let cleaned = title.replacingOccurrences(of: "::", with: ":").trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? "Untitled" : cleaned
    }

    /// "Made by Lectern from Introduction to Philosophy (https://…), licensed CC BY-NC-SA 4.0 (https://…)."
    static func attribution(_ sources: [CurriculumSource]) -> String {
        guard !sources.isEmpty else { return "Made by Lectern." }
        let lines = sources.map { source -> String in
            var line = "\(HTMLText.escape(source.title))"
            if !source.uri.isEmpty { line += " (\(HTMLText.escape(source.uri)))" }
            if let licence = source.licence {
                line += ", licensed \(HTMLText.escape(licence))"
                if let url = source.licenceURL { line += " (<a href=\"\(HTMLText.escape(url))\">\(HTMLText.escape(url))</a>)" }
            }
            return line
        }
        return "Cards made by Lectern from: " + lines.joined(separator: "; ") + "."
    }
}

enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
