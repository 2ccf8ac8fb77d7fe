/// The objectives a topic without its own carries from its unit: only those about what this
/// topic's text says. A unit's first objectives are mostly its other lessons' (graded by hand,
/// 4 of 10 topics without real objectives carried the momentum objectives of a centre-of-mass
/// page); an offline "Define A, B and C" is narrowed to the terms this topic uses. When none
/// concerns the topic it carries the unit's overall objective: the one that concerns most of the
/// unit's topics. `eval/curriculum/sample.py` mirrors this rule to print what a learner gets
/// (not the title's check: a topic it leaves without any has its title's subject from the builder).
enum InheritedObjectives {
    /// At most this many of a unit's objectives are inherited by a topic without its own.
    static let limit = 6
    /// A word of an objective a topic uses fewer times than this is met in passing.
    static let termUses = 2
    /// A defined term a topic uses fewer times than this is met in passing, not taught: twice
    /// was "Define Isometrie" on the notes' continuity proofs, which use the word in one remark.
    static let definedTermUses = 3
    /// Share of an objective's content words a topic's text must hold for the objective to concern it.
    static let wordShare = 0.6

    /// What `topic` inherits from its unit's `candidates` (`unitObjectives`): (the objective it
    /// comes from, the statement it gets); `overall` (`overall(of:)`, asked only when none fits).
    static func objectives(for topic: Topic, candidates: [LearningObjective],
                           overall: () -> LearningObjective?) -> [(objective: LearningObjective, statement: String)] {
        guard !candidates.isEmpty else { return [] }
        let words = stems(of: topic)
        // Two objectives narrowed to the same terms ("Define component" from two lists) are one.
        var statements = Set<String>()
        let counts = Dictionary(words.map { ($0, 1) }, uniquingKeysWith: +)  // counted once, not once per candidate
        let fitting = candidates.compactMap { objective in concern(objective, words: words, counts: counts).map { (objective, $0) } }
            .filter { statements.insert(key($0.1)).inserted }
        // A lesson about one thing under the unit's subject ("Stable and Unstable Equilibrium
        // Points") is not taught by the unit's objectives about that subject ("Define potential
        // energy"), however often it says its words: where its title names a subject its text
        // speaks of and none of them names a word of it, none fits (the title's subject stands in).
        if !fitting.isEmpty, let subject = titleWords(topic), !fitting.contains(where: { !subject.isDisjoint(with: TermMatcher.stems($0.1)) }) { return [] }
        if !fitting.isEmpty { return Array(fitting.prefix(limit)) }
        // None is about this topic: the unit's overall objective, as the unit states it.
        return overall().map { [($0, $0.statement)] } ?? []
    }

    /// The objective of `unit` that concerns most of its topics (the first of those tied).
    static func overall(of unit: CurriculumUnit) -> LearningObjective? {
        let candidates = unitObjectives(unit)
        let topicWords = unit.topics.map(stems(of:))
        let reach = candidates.map { objective in topicWords.filter { concern(objective, words: $0) != nil }.count }
        guard let best = reach.indices.max(by: { reach[$0] < reach[$1] || (reach[$0] == reach[$1] && $0 > $1) }) else { return nil }
        return candidates[best]
    }

    /// The objectives of `unit`'s topics, once each in course order.
    static func unitObjectives(_ unit: CurriculumUnit) -> [LearningObjective] {
        var seen = Set<String>()
        return unit.topics.flatMap(\.objectives).filter { seen.insert(key($0.statement)).inserted }
    }

    /// What makes two statements one: their words in lower case without articles ("Calculate
    /// angular momentum" from one topic's title, "Calculate the angular momentum" from another's task).
    static func key(_ statement: String) -> String {
        statement.lowercased().split(separator: " ").filter { !["the", "a", "an"].contains($0) }.joined(separator: " ")
    }

    /// The statement `objective` takes for a topic whose text is `words` (stems), or nil when it
    /// is not about that text. An offline "Define A, B and C" keeps the terms the text uses at
    /// least `definedTermUses` times; any other objective (the source's are kept verbatim) needs
    /// `wordShare` of its content words in the text (an offline one all of them) and one of them
    /// used `termUses` times.
    static func concern(_ objective: LearningObjective, words: [String]) -> String? {
        concern(objective, words: words, counts: Dictionary(words.map { ($0, 1) }, uniquingKeysWith: +))
    }

    /// `concern(_:words:)` with `words` counted (`counts`: each stem's uses).
    static func concern(_ objective: LearningObjective, words: [String], counts: [String: Int]) -> String? {
        let parts = objective.statement.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let (verb, rest) = (parts[0], parts[1])
        if objective.origin == .offline, verb == "Define" {
            let kept = terms(of: rest).filter { TermMatcher.count(TermMatcher.stems($0), in: words) >= definedTermUses }
            return kept.isEmpty ? nil : "Define " + OfflineObjectives.list(kept)
        }
        let content = Array(Set(TermMatcher.stems(rest).filter { !ContentWords.stopwords.contains($0) && $0.count > 2 }))
        guard !content.isEmpty else { return nil }
        let present = content.filter { counts[$0] != nil }
        // An offline objective is a few words the builder chose ("Determine the velocity of the
        // center of mass"): every one of them must be in the text, or it is another lesson's.
        let share = objective.origin == .offline ? 1.0 : wordShare
        guard Double(present.count) >= share * Double(content.count),
              present.contains(where: { (counts[$0] ?? 0) >= termUses }) else { return nil }
        return objective.statement
    }

    /// The content words (stems) of the subject `topic`'s title names, up to its first
    /// preposition ("stabl", "unstabl", "equilibrium", "point" of "Stable and Unstable
    /// Equilibrium Points"); nil for a title that names no subject its text speaks of, or says
    /// something of it ("Force is the Derivative of Potential").
    static func titleWords(_ topic: Topic) -> Set<String>? {
        guard let subject = OfflineObjectives.titleSubject(topic.title, passages: topic.passages) else { return nil }
        let words = subject.split(separator: " ").dropFirst().map { $0.lowercased() }
        guard !words.contains(where: { ["is", "are", "was", "were"].contains($0) }) else { return nil }
        let phrase = words.prefix { !KeyTermExtraction.prepositions.contains($0) }.filter { !ContentWords.stopwords.contains($0) }
        return phrase.isEmpty ? nil : Set(phrase.map(TermMatcher.stem))
    }

    /// The terms of "A, B and C".
    static func terms(of list: String) -> [String] {
        list.components(separatedBy: ", ").flatMap { $0.components(separatedBy: " and ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func stems(of topic: Topic) -> [String] {
        topic.passages.flatMap { TermMatcher.stems($0.text) }
    }
}
