import Foundation

/// How a lecturer names a symbol rather than a term ("Capital omega", "theta j", "Xcm"): shared
/// by the cards' checks, the curriculum's objectives and the spoken reading of summaries.
enum SymbolLabel {
    /// The Greek letters' names, which a lecturer names symbols with ("Capital omega", "theta j").
    static let greekLetters: Set<String> = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi",
        "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
    ]

    /// Words a lecturer names symbols with ("Capital omega", "RS to J", "Xcm").
    private static let symbolWords: Set<String> = greekLetters.union(["capital", "sub"])

    /// Whether `phrase` is a symbol's label rather than a term: a single letter, a capitalised
    /// abbreviation or a letter with a subscript ("RS", "J", "Xcm"), a Greek letter's name.
    static func isLabel(_ phrase: String) -> Bool {
        // Words as written: "Xcm" is a label by its case, which the folded words lose.
        phrase.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { word in
            let letters = word.filter(\.isLetter)
            return letters.count == 1 || symbolWords.contains(WordTokenizer.fold(String(word)))
                || (word.count >= 2 && word.count <= 4 && word.first?.isUppercase == true && word.dropFirst().allSatisfy(\.isLowercase)
                    && !word.lowercased().contains { "aeiouy".contains($0) })
        }
    }
}
