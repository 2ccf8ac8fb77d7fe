import Foundation

/// Which offline method (or the model) made a card: what `cards stats` counts by.
enum CardOrigin: String, Codable, Sendable, CaseIterable {
    case glossary
    case keyTerm = "key-term"
    case definition
    case objective
    /// A definition, theorem or rule environment of the source ("Definition 1.2", "Satz 3").
    case environment
    /// A relation the source states as a law or a definition ("Newton's second law, F equals m a").
    case formula
    /// A worked example the source gives of a named concept: "Which fallacy does this example show?".
    case example
    /// A fact a source states in running text in a shape every course uses: a named law's
    /// statement, a quantity's SI unit, what an idea is for ("Newton's third law states that …").
    case statement
    case model
}
