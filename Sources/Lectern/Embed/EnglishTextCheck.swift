/// Tells whether a document is mostly not English, for embedders trained on English only
/// (all-MiniLM-L6-v2): their vectors for other languages are poor, and the user should know
/// that semantic search will miss there while keyword search still works.
///
/// A cheap guess on a sample of the text: English prose is mostly Latin letters, and about a
/// third of its words are common function words (the, of, and, to, is …). German, French or
/// Greek text fails one of the two.
enum EnglishTextCheck {
    /// Characters examined, spread over the document.
    static let sampleCharacters = 40_000
    /// Fewer letters than this say nothing either way.
    static let minimumLetters = 300

    static let functionWords: Set<String> = [
        "the", "of", "and", "to", "a", "in", "is", "that", "it", "for", "as", "was", "with", "be", "by", "on",
        "not", "this", "are", "or", "at", "from", "which", "an", "but", "have", "has", "were", "they", "we",
        "you", "he", "she", "his", "her", "its", "their", "there", "can", "will", "would", "if", "so", "what",
        "when", "these", "those", "than", "then", "also", "all", "one", "into", "been", "more", "other", "our",
        "do", "does", "how", "i", "about", "because", "between", "each", "may", "such", "only", "some",
    ]

    static func isMostlyNonEnglish(_ texts: [String]) -> Bool {
        var letters = 0
        var latinLetters = 0
        var words = 0
        var common = 0
        var budget = sampleCharacters
        // Every text contributes its share, so one long English preface cannot hide the rest.
        let share = max(200, sampleCharacters / max(1, texts.count))
        for text in texts where budget > 0 {
            var word = ""
            func endWord() {
                if !word.isEmpty {
                    words += 1
                    if functionWords.contains(word) { common += 1 }
                    word = ""
                }
            }
            for scalar in text.unicodeScalars.prefix(min(share, budget)) {
                budget -= 1
                if scalar.properties.isAlphabetic {
                    letters += 1
                    let value = scalar.value
                    if (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) {
                        latinLetters += 1
                        word.unicodeScalars.append(Unicode.Scalar(value | 0x20)!)
                    } else {
                        word.unicodeScalars.append(scalar)
                    }
                } else if scalar != "'" {
                    endWord()
                }
            }
            endWord()
        }
        guard letters >= minimumLetters, words > 0 else { return false }
        let latinShare = Double(latinLetters) / Double(letters)
        let commonShare = Double(common) / Double(words)
        return latinShare < 0.7 || commonShare < 0.12
    }
}
