import Foundation

/// Which offline method (or the model) made a card: what `cards stats` counts by.
enum CardOrigin: String, Codable, Sendable, CaseIterable {
    case glossary
    case keyTerm = "key-term"
    case definition
    case objective
    /// A definition, theorem or rule environment of the source ("Definition 1.2", "Satz 3").
    case environment
    case model
}
