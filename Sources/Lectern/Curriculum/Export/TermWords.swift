import Foundation

/// A text's words, lowercased, for finding key terms in it as whole words ("ATP" in "ATP is
/// made", not in "ATPase"; "self-interest" also as "self interest") without scanning the text
/// once per term.
struct TermWords {
    let words: [String]
    private let distinct: Set<String>

    init(_ text: String) {
        words = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        distinct = Set(words)
    }

    /// Whether `term`'s words occur here, one after another.
    func contains(_ term: TermWords) -> Bool {
        guard let first = term.words.first, term.words.allSatisfy(distinct.contains) else { return false }
        if term.words.count == 1 { return true }
        let count = term.words.count
        for start in words.indices where words[start] == first && words.count - start >= count {
            if words[start..<start + count].elementsEqual(term.words) { return true }
        }
        return false
    }
}
