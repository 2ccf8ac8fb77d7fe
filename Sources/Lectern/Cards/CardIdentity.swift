import Foundation

/// Ids that must not change between exports of one curriculum: note GUIDs, note-type ids and
/// deck ids. Anki matches an imported note to the one it has by GUID, and note types and decks
/// by id, so a regenerated deck updates what the learner has instead of adding beside it.
enum CardIdentity {
    /// Lower case, single spaces, no surrounding punctuation: "  What is  Ethics? " → "what is ethics".
    static func normalised(_ text: String) -> String {
        PorterStemmer.foldedWords(ClozeText.revealed(text)).joined(separator: " ")
    }

    /// Basic notes by their front; Cloze notes by the deleted answer alone, so an edited
    /// sentence around the same answer updates the note.
    static func guid(curriculum: String, topic: String, noteType: CardNoteType, front: String) -> String {
        let key: String
        switch noteType {
        case .basic, .basicReversed: key = "basic\u{1F}" + normalised(front)
        case .cloze: key = "cloze\u{1F}" + normalised(ClozeText.deletions(in: front).joined(separator: " "))
        }
        return "lc" + ContentHash.hex(digest([curriculum, topic, key].joined(separator: "\u{1F}")).prefix(8))
    }

    /// A positive id below 2^53 (Anki keeps ids in JSON numbers) from `parts`.
    static func numericId(_ parts: String...) -> Int64 { numericId(parts) }

    /// Basic and Basic-and-reversed notes share ONE note type (its reverse card made when the
    /// "Add Reverse" field is filled), so a note whose meaning grows past the reverse limit is
    /// updated in place: Anki refuses to update a note into another note type.
    static func noteTypeId(curriculum: String, _ noteType: CardNoteType) -> Int64 {
        numericId("notetype", curriculum, noteType == .cloze ? "cloze" : "basic")
    }

    /// A deck by its path of names under the curriculum (`[unit, topic]`).
    static func deckId(curriculum: String, path: [String]) -> Int64 {
        numericId(["deck", curriculum] + path)
    }

    static func numericId(_ parts: [String]) -> Int64 {
        // Above 2^40 so it never meets Anki's default deck (1) or its own small ids.
        let value = digest(parts.joined(separator: "\u{1F}")).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(value & ((1 << 52) - 1)) | (1 << 40)
    }

    /// SHA-256 bytes of the text.
    static func digest(_ text: String) -> [UInt8] { ContentHash.sha256Bytes(Data(text.utf8)) }
}
