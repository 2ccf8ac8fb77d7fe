import Foundation

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
