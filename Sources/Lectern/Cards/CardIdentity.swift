import Foundation

/// Ids that must not change between exports of one curriculum: note GUIDs, note-type ids and
/// deck ids. Anki matches an imported note to the one it has by GUID, and note types and decks
/// by id, so a regenerated deck updates what the learner has instead of adding beside it.
enum CardIdentity {
    /// Lower case, single spaces, no surrounding punctuation: "  What is  Ethics? " → "what is ethics".
    static func normalised(_ text: String) -> String {
        WordTokenizer.words(ClozeText.revealed(text)).map(WordTokenizer.fold).joined(separator: " ")
    }

    /// Basic notes by their front; Cloze notes by the deleted answer alone, so an edited
    /// sentence around the same answer updates the note.
    static func guid(curriculum: String, topic: String, noteType: CardNoteType, front: String) -> String {
        let key: String
        switch noteType {
        case .basic, .basicReversed: key = "basic\u{1F}" + normalised(front)
        case .cloze: key = "cloze\u{1F}" + normalised(ClozeText.deletions(in: front).joined(separator: " "))
        }
        let digest = ContentHash.sha256([curriculum, topic, key].joined(separator: "\u{1F}"))
        return "lc" + digest.prefix(16)
    }

    /// A positive id below 2^53 (Anki keeps ids in JSON numbers) from `parts`.
    static func numericId(_ parts: String...) -> Int64 { numericId(parts) }

    static func noteTypeId(curriculum: String, _ noteType: CardNoteType) -> Int64 {
        numericId("notetype", curriculum, noteType.rawValue)
    }

    /// A deck by its path of names under the curriculum (`[unit, topic]`).
    static func deckId(curriculum: String, path: [String]) -> Int64 {
        numericId(["deck", curriculum] + path)
    }

    static func numericId(_ parts: [String]) -> Int64 {
        // Above 2^40 so it never meets Anki's default deck (1) or its own small ids.
        let digest = ContentHash.sha256(parts.joined(separator: "\u{1F}"))
        let value = UInt64(digest.prefix(15), radix: 16) ?? 1
        return Int64(value & ((1 << 52) - 1)) | (1 << 40)
    }
}
