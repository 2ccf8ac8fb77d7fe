import Foundation

/// Whether a sentence can stand on a card without the sentences around it. "These numerical
/// representations are called embeddings", "Another tool that does this …", "… takes this worry
/// seriously": out of its paragraph a learner cannot tell what the sentence is about. The cloze
/// generator skips such sentences and the checks reject clozes made of them, so the two agree.
enum StandaloneSentence {
    /// Words that point at something the sentence does not name, wherever they stand.
    static let pointers: Set<String> = ["this", "these", "those", "former", "latter", "aforementioned", "above", "below"]
    /// Words that point back when they open the sentence ("Another tool …", "Such a view …").
    static let openingPointers: Set<String> = ["that", "another", "such", "it", "its", "they", "their", "he", "she", "his", "her", "them", "him"]

    /// Why `sentence` needs its neighbours, or nil when it stands alone.
    static func dependence(_ sentence: String) -> String? {
        if let pointing = pointing(sentence) { return pointing }
        // "…; remember that …", "… are distinct, and remember that …": the speaker's aside.
        if sentence.range(of: #"[;,] (?:and |but |so )?(?:remember|note|notice|recall|see)\b"#, options: .regularExpression) != nil {
            return "the sentence holds a second statement"
        }
        if SentenceSplitter.split(sentence).count > 1 { return "the text is several sentences, not one fact" }
        return nil
    }

    /// Why `text` points at what it does not name ("So this special case …"), or nil.
    static func pointing(_ text: String) -> String? {
        // "In this way", "the same way": a manner, not a thing left unnamed.
        let plain = text.replacingOccurrences(of: #"\b(?:[Ii]n )?(?:this|that|the same) way\b"#, with: " ", options: .regularExpression)
        var words = WordTokenizer.words(plain).map(WordTokenizer.fold)
        guard let first = words.first else { return nil }
        if openingPointers.contains(first) || CardChecks.openers.contains(first) {
            return "the sentence opens with “\(first)”: out of context it is ambiguous"
        }
        // "This coupling of a proton gradient to ATP synthesis is called …" names what it points at;
        // "These numerical representations are called …" does not.
        if ["this", "these", "those"].contains(first),
           plain.range(of: #"^\S+(?: \S+){4,} (?:is|are) (?:called|known as|termed|named)\b"#, options: .regularExpression) != nil {
            words.removeFirst()
        }
        if let pointer = words.first(where: pointers.contains) {
            return "“\(pointer)” points at something the sentence does not name"
        }
        return nil
    }

    /// Greek letters and words a lecturer names symbols with ("Capital omega", "RS to J", "Xcm").
    private static let symbolWords: Set<String> = [
        "alpha", "beta", "gamma", "delta", "epsilon", "theta", "lambda", "mu", "nu", "pi", "rho", "sigma", "tau", "phi", "psi",
        "omega", "capital", "sub",
    ]

    /// Whether `phrase` is a symbol's label rather than a term: a single letter, a capitalised
    /// abbreviation or a letter with a subscript ("RS", "J", "Xcm"), a Greek letter's name.
    static func isLabel(_ phrase: String) -> Bool {
        WordTokenizer.words(phrase).contains { word in
            let letters = word.filter(\.isLetter)
            return letters.count == 1 || symbolWords.contains(WordTokenizer.fold(word))
                || (letters.count <= 3 && word.first?.isUppercase == true && word.dropFirst().contains { $0.isUppercase })
                || (word.count <= 4 && word.first?.isUppercase == true && word.dropFirst().allSatisfy(\.isLowercase) && !word.contains { "aeiouy".contains($0) })
        }
    }
}
