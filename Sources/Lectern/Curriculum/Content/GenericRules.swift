import Foundation

/// A law a course applies in lesson after lesson ("Apply Newton's second law": 38 of OCW
/// 8.01SC's lectures, in 12 of its 13 units) is no objective of one lesson on its own: graded
/// by hand, "Apply Newton's second law" for the lecture on the ideal rope says nothing of what
/// the lecture teaches (that the tension in a massless rope is uniform). Where the text said what
/// it applies the law to, the objective already says so (`OfflineObjectives.applied`); a bare one
/// stays only where the lesson's title names the law ("Newton's First and Second Laws"), is
/// applied to the subject its title names where it has no other objective ("Apply Newton's
/// second law to resistive forces"), and goes otherwise. Decided from the topics' text, not
/// from other topics' objectives, so a rebuild that keeps some topics decides as a fresh one.
enum GenericRules {
    /// A rule named in the text of this many units or more is the course's, not a lesson's.
    static let units = 3

    /// `topics` with their bare objectives of a rule the course uses throughout specialised or
    /// dropped (`units`: each topic's unit index).
    static func specialise(_ topics: inout [Topic], units unitOf: [Int]) {
        let bare = topics.indices.flatMap { index in
            topics[index].objectives.compactMap { $0.origin == .offline ? bareLaw($0.statement) : nil }
        }
        guard !bare.isEmpty else { return }
        let generic = genericRules(Set(bare), topics: topics, units: unitOf)
        guard !generic.isEmpty else { return }
        for index in topics.indices {
            let objectives = topics[index].objectives
            guard objectives.contains(where: { $0.origin == .offline && bareLaw($0.statement).map(generic.contains) == true })
            else { continue }
            let titleStems = Set(TermMatcher.stems(topics[index].title).map { numbered[$0] ?? $0 })
            var kept: [LearningObjective] = []
            for objective in objectives {
                guard objective.origin == .offline, let rule = bareLaw(objective.statement), generic.contains(rule) else {
                    kept.append(objective)
                    continue
                }
                // "4.1 Newton's First and Second Laws" teaches the law it names.
                if Set(contentStems(rule)).isSubset(of: titleStems) {
                    kept.append(objective)
                } else if objectives.count == 1, let subject = OfflineObjectives.titleSubject(topics[index].title, passages: topics[index].passages)
                            .map({ String($0.dropFirst("Describe ".count)) }), says(subject, topics[index].passages) {
                    let statement = "Apply \(rule) to " + withArticle(subject)
                    kept.append(LearningObjective(statement, origin: .offline, topicId: topics[index].stableId))
                } else if objective.statement.hasPrefix("Explain ") {
                    kept.append(objective)
                }
            }
            topics[index].objectives = kept
        }
    }

    /// The law a bare "Apply <law>" or "Explain the <…> principle" names. A principle stays where
    /// its title names no subject: on a worked example "using energy" it is what the example
    /// exercises, and dropped it left the unit's unrelated objectives.
    static func bareLaw(_ statement: String) -> String? {
        OfflineObjectives.appliedRule(statement)
    }

    /// Which of `rules` the text of `units` or more of the course's units names.
    static func genericRules(_ rules: Set<String>, topics: [Topic], units unitOf: [Int]) -> Set<String> {
        // Each unit's text in lower case, made once; a rule's search stops at the `units`-th unit.
        let byUnit = Dictionary(grouping: topics.indices, by: { unitOf[$0] })
        let texts = byUnit.keys.sorted().map { unit in
            byUnit[unit]!.flatMap { topics[$0].passages.map(\.text) }.joined(separator: "\n").lowercased().replacingOccurrences(of: "’", with: "'")
        }
        guard texts.count >= units else { return [] }
        return rules.filter { rule in
            let name = (rule.lowercased().hasPrefix("the ") ? String(rule.dropFirst(4)) : rule).lowercased().replacingOccurrences(of: "’", with: "'")
            var found = 0
            for text in texts where text.contains(name) {
                found += 1
                if found >= units { return true }
            }
            return false
        }
    }

    /// "Newton's 2nd Law and Energy Conservation" names Newton's second law.
    static let numbered = ["1st": "first", "2nd": "second", "3rd": "third"]

    /// Whether the text says `subject` as a phrase: "Internal Torques Cancel in Pairs" is a
    /// title's sentence ("Apply Newton's third law to the internal torques cancel in pairs"),
    /// "Resistive Forces" a subject the text names.
    static func says(_ subject: String, _ passages: [Passage]) -> Bool {
        let phrase = TermMatcher.stems(subject)
        return passages.contains { TermMatcher.count(phrase, in: TermMatcher.stems($0.text)) > 0 }
    }

    static func contentStems(_ text: String) -> [String] {
        TermMatcher.stems(text).filter { !ContentWords.stopwords.contains($0) && $0.count > 2 }
    }

    /// "the ideal rope", "resistive forces", "the rope hanging between trees": a subject after
    /// "to", with "the" unless its head noun (the word before a preposition or an -ing word) is plural.
    static func withArticle(_ subject: String) -> String {
        let words = subject.split(separator: " ").map { $0.lowercased() }
        guard let first = words.first, !["the", "a", "an"].contains(first) else { return subject }
        let end = words.indices.dropFirst().first { KeyTermExtraction.prepositions.contains(words[$0]) || words[$0].hasSuffix("ing") } ?? words.count
        let head = words[end - 1]
        return head.hasSuffix("s") && !head.hasSuffix("ss") && !head.hasSuffix("us") ? subject : "the " + subject
    }
}
