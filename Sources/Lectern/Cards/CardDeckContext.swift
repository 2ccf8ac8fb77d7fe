import Foundation

/// What every card of one curriculum shares: its identity, its sources (for the Source field
/// and the licence) and where each topic sits in the deck tree.
struct CardDeckContext: Sendable {
    let curriculumStableId: String
    let courseTitle: String
    let sources: [Int64: CurriculumSource]
    /// Topic stable id → its unit's title.
    let unitTitles: [String: String]
    let now: Date

    init(curriculum: Curriculum, now: Date = Date()) {
        curriculumStableId = curriculum.stableId
        courseTitle = curriculum.title
        sources = Dictionary(curriculum.sources.map { ($0.documentId, $0) }, uniquingKeysWith: { first, _ in first })
        var units: [String: String] = [:]
        for unit in curriculum.units { for topic in unit.topics { units[topic.stableId] = unit.title } }
        unitTitles = units
        self.now = now
    }

    func card(topic: Topic, type: CardNoteType, front: String, back: String, origin: CardOrigin,
              passage: Passage) -> Flashcard {
        let source = self.source(of: passage)
        return Flashcard(
            guid: CardIdentity.guid(curriculum: curriculumStableId, topic: topic.stableId, noteType: type, front: front),
            curriculumStableId: curriculumStableId, topicStableId: topic.stableId, noteType: type,
            front: front, back: back, origin: origin, source: source,
            tags: [Self.tag("topic", topic.title), Self.tag("source", source.documentTitle)] + (sources[passage.documentId]?.tags ?? []).map(Self.tag),
            grounding: 0, modifiedAt: now)
    }

    func source(of passage: Passage) -> CardSource {
        let document = sources[passage.documentId]
        return CardSource(
            passageId: passage.id, documentId: passage.documentId,
            documentTitle: document?.title ?? "document \(passage.documentId)", uri: document?.uri ?? "",
            pageStart: passage.pageStart, pageLabel: passage.pageLabel, timeStart: passage.timeStart,
            licence: document?.licence, licenceURL: document?.licenceURL)
    }

    /// A tag as a pipeline gives it ("biology", "week 3"), as Anki holds it: no spaces.
    static func tag(_ label: String) -> String {
        label.split(whereSeparator: \.isWhitespace).joined(separator: "_")
    }

    /// Anki tags hold no spaces: "topic::Ethics_and_Law".
    static func tag(_ kind: String, _ title: String) -> String {
        let words = title.split { !($0.isLetter || $0.isNumber) }.prefix(8)
        return "\(kind)::" + (words.isEmpty ? "untitled" : words.joined(separator: "_"))
    }

    /// The deck path under the course: `[unit, topic]`, or `[topic]` when the unit is the topic.
    func deckPath(topicStableId: String, topicTitle: String) -> [String] {
        let unit = unitTitles[topicStableId]
        guard let unit, unit != topicTitle else { return [topicTitle] }
        return [unit, topicTitle]
    }
}
