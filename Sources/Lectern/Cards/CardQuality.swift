import Foundation

/// The six checks a card is scored on, what `cards list --json` shows as its `quality` and
/// what `cards generate --min-quality` filters by. The score is the share of checks passed.
public struct CardQuality: Codable, Sendable, Equatable {
    public struct Check: Codable, Sendable, Equatable {
        public var name: String
        public var passed: Bool
        public var reason: String
    }

    public var score: Double
    public var checks: [Check]

    init(_ checks: [Check]) {
        self.checks = checks
        score = checks.isEmpty ? 0 : (Double(checks.filter(\.passed).count) / Double(checks.count) * 1000).rounded() / 1000
    }

    /// The first check the card fails: the reason its rejection is counted under.
    var firstFailure: Check? { checks.first { !$0.passed } }
}

/// The checks, in the order they are reported.
enum CardCheck: String, CaseIterable, Sendable {
    /// The sentence the answer comes from is the source's own statement, not an example,
    /// quotation, hypothetical, argument premise, question, exercise or figure credit.
    case sourceAssertion = "source-assertion"
    /// A definition card's subject is a term (no pronoun, adverb or discourse word) and its
    /// definiens a complete phrase.
    case subjectForm = "subject-form"
    /// A cloze deletes a term, a name, a number or a formula, never a function word or half a phrase.
    case clozeTarget = "cloze-target"
    /// The back answers the front and the front does not give the answer away.
    case answerability
    /// One sentence of the cited passage states the answer, as a statement.
    case grounding
    /// No other card teaches this term in another sense than the source's own definition.
    case duplication
}
