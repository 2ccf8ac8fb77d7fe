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

    /// A card citing `passage`; from a transcript, `said` (the sentence that answers it, as the
    /// passage holds it) moves its time from the passage's start to the moment that sentence is said.
    func card(topic: Topic, type: CardNoteType, front: String, back: String, origin: CardOrigin,
              passage: Passage, at said: String? = nil) -> Flashcard {
        var source = self.source(of: passage)
        if let said, let time = Self.time(of: said, in: passage) { source.timeStart = time }
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

    /// When `sentence` is said in `passage`: the time of the cue its first words are in; nil
    /// for a passage without a timeline or a sentence it does not hold.
    static func time(of sentence: String, in passage: Passage) -> Double? {
        guard passage.timeline?.isEmpty == false else { return nil }
        // (The sentence's spaces were collapsed; its first words find it.)
        let opening = sentence.split(separator: " ").prefix(6).joined(separator: " ")
        guard !opening.isEmpty, let range = passage.text.range(of: opening) ?? TextCleanup.collapseWhitespace(passage.text).range(of: opening)
        else { return nil }
        let text = passage.text.range(of: opening) != nil ? passage.text : TextCleanup.collapseWhitespace(passage.text)
        return passage.time(atOffset: text.distance(from: text.startIndex, to: range.lowerBound))
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
