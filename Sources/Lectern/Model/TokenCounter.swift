/// Counts tokens the way the embedder will: one token is one word piece of its tokenizer.
/// Here in Model: embedders provide it, the chunker and the LLM context budget use it.
public protocol TokenCounter: Sendable {
    func count(_ text: String) -> Int
    /// Names the way of counting: passages cut by two counters of one name are the same, so
    /// the name (not the embedder) is what a document's skip key holds for the chunking.
    var countingKey: String { get }
}

/// An estimate of BERT WordPiece counts for English, used until an embedder brings its own
/// tokenizer. It errs high (long words split into several pieces, each punctuation mark is a
/// piece) so that passages sized with it still fit the model.
struct ApproximateTokenCounter: TokenCounter {
    init() {}

    var countingKey: String { "approximate-wordpiece@1" }

    func count(_ text: String) -> Int {
        var total = 0
        var wordLength = 0
        func endWord() {
            if wordLength > 0 {
                // Common words are one piece; longer ones split roughly every 5 characters.
                total += wordLength <= 7 ? 1 : 1 + (wordLength - 3) / 5
                wordLength = 0
            }
        }
        for scalar in text.unicodeScalars {
            let props = scalar.properties
            if props.isAlphabetic || scalar.properties.numericType != nil {
                if isCJK(scalar) {
                    endWord()
                    total += 1
                } else {
                    wordLength += 1
                }
            } else if props.isWhitespace {
                endWord()
            } else {
                endWord()
                if !(scalar.value < 0x20) { total += 1 }
            }
        }
        endWord()
        return total
    }

    private func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0xF900...0xFAFF, 0x3040...0x30FF, 0xAC00...0xD7AF:
            return true
        default:
            return false
        }
    }
}
