/// Words folded and lightly stemmed, so that a key term matches its plural and simple
/// inflections ("allele" in "alleles", "philosophy" in "philosophies") on word boundaries.
enum TermMatcher {
    /// The stemmed words of `text`, in order.
    static func stems(_ text: String) -> [String] {
        WordTokenizer.words(text).map { stem(WordTokenizer.fold($0)) }
    }

    /// A light suffix stripper (plurals, -ing, -ed): enough for term matching, where a full
    /// Porter stemmer would also merge words of different meaning.
    static func stem(_ word: String) -> String {
        guard word.count > 3, word.allSatisfy(\.isLetter) else { return word }
        if word.hasSuffix("ies"), word.count > 4 { return String(word.dropLast(3)) + "y" }
        for suffix in ["sses", "shes", "ches", "xes", "zes"] where word.hasSuffix(suffix) { return String(word.dropLast(2)) }
        if word.hasSuffix("ss") || word.hasSuffix("us") || word.hasSuffix("is") { return word }
        if word.hasSuffix("s") { return String(word.dropLast()) }
        if word.hasSuffix("ing"), word.count > 5 { return String(word.dropLast(3)) }
        if word.hasSuffix("ed"), word.count > 4 { return String(word.dropLast(2)) }
        return word
    }

    /// How many times the word sequence `term` occurs in `words`.
    static func count(_ term: [String], in words: [String]) -> Int {
        guard !term.isEmpty, words.count >= term.count else { return 0 }
        var found = 0
        var i = 0
        while i <= words.count - term.count {
            if words[i] == term[0], Array(words[i..<(i + term.count)]) == term {
                found += 1
                i += term.count
            } else {
                i += 1
            }
        }
        return found
    }
}
