import Foundation

/// Words as search, snippets, summaries and the hashing embedder see them. One definition, so
/// a query's words and a passage's words always split and fold alike.
enum WordTokenizer {
    /// Lower-cased runs of letters and digits: "Light-dependent reactions!" → ["light", "dependent", "reactions"].
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Lower case without diacritics, as the FTS tokenizer compares words ("Énergie" →
    /// "energie", "Größe" → "große": case folding would make it "grosse", which the index,
    /// lower-casing only, never holds).
    static func fold(_ word: String) -> String {
        // ASCII has no diacritics: lower-casing is all there is to do, and Foundation's folding
        // is most of a snippet's time (every word of every hit passes here).
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        return word.folding(options: [.diacriticInsensitive], locale: nil).lowercased()
    }
}
