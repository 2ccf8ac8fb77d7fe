import Foundation

/// The Anki note type a card is written with. A Basic-and-reversed note is ONE note that Anki
/// turns into two cards (front → back and back → front).
enum CardNoteType: String, Codable, Sendable, CaseIterable {
    case basic
    case basicReversed = "basic-reversed"
    case cloze

    /// Cards Anki makes from one note of this type (a Cloze note here has one deletion).
    var cardsPerNote: Int { self == .basicReversed ? 2 : 1 }
}
