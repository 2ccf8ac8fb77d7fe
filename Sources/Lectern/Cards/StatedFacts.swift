import Foundation

/// Facts a source states in running text in shapes every course uses, read from one sentence:
/// a named law's or theorem's statement ("Newton's third law states that forces always come in
/// equal and opposite pairs"), a quantity's SI unit ("The SI unit of power is the watt"), and
/// what an idea is for ("The idea of transfer learning is to leverage …"). A lecture says these
/// in passing, with no glossary or definition block around them: they are most of what a
/// transcript asserts that a learner should recall.
enum StatedFacts {
    struct Fact: Equatable, Sendable {
        /// "What does Newton's third law state?"
        var front: String
        /// "Forces always come in equal and opposite pairs"
        var back: String
    }

    /// Whether `text` holds a word every shape needs: a quick look that keeps a book fast.
    static func mayState(_ text: String) -> Bool {
        ["states that", "says that", "tells us that", "statement that", "states:", "says:", "says exactly this", "SI unit"].contains(where: text.contains)
            || (text.contains(" is to ") && ["idea of", "goal of", "aim of", "purpose of", "point of"].contains(where: text.contains))
    }

    /// The facts `sentence` states, at most one of each shape.
    static func facts(in sentence: String) -> [Fact] {
        [lawStatement(in: sentence), siUnit(in: sentence), purpose(in: sentence)].compactMap { $0 }
    }

    // MARK: A named law's statement

    /// "Newton's third law", "Chasles' theorem", "the work-kinetic energy theorem", "the law of
    /// conservation of momentum": a name a learner can be asked about. "our momentum principle",
    /// "this law" point into the lecture, and "the definition" alone names nothing.
    private static let lawName = #"(?<name>(?:[A-Z][\p{L}-]+(?:'s|’s|s'|s’) (?:(?:first|second|third|zeroth|fundamental) )?(?:[Ll]aw|[Tt]heorem|[Pp]rinciple|[Rr]ule|[Ll]emma|[Ee]quation)(?: of (?:motion|gravitation))?)|(?:[Tt]he (?:[\p{Ll}-]+ ){1,3}(?:law|theorem|principle|rule|definition)(?: of (?:the )?[\p{Ll}-]+(?: of [\p{Ll}-]+)?)?)|(?:[Tt]he (?:law|theorem|principle|rule) of (?:the )?[\p{Ll}-]+(?: of [\p{Ll}-]+)?))"#

    private static let lawPatterns: [NSRegularExpression] = [
        // "Newton's third law states that …", "Recall that Newton's first law of motion states that …".
        #"^(?:(?:And|So|Now|But|Recall that|Remember that|Again),? )*"# + lawName + #" (?:states|says|tells us) that (?<claim>.+)$"#,
        // "Hooke's law is the statement that …".
        #"^(?:(?:And|So|Now|But),? )*(?:now )?"# + lawName + #" is the statement that (?<claim>.+)$"#,
        // "There is a useful relation known as Chasles' theorem that states that …".
        #"\b(?:known as|called) "# + lawName + #",? (?:that|which) states that (?<claim>.+)$"#,
        // "The epsilon-delta definition says exactly this: for every epsilon …".
        #"^"# + lawName + #" (?:states|says)(?: exactly this)?: (?<claim>.+)$"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// "Newton's third law states that forces always come in equal and opposite pairs." →
    /// "What does Newton's third law state?" → "Forces always come in equal and opposite pairs".
    static func lawStatement(in sentence: String) -> Fact? {
        guard ["state", "says", "tells us"].contains(where: sentence.contains) else { return nil }
        let ns = sentence as NSString
        for pattern in lawPatterns {
            guard let match = pattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { continue }
            var name = ns.substring(with: match.range(withName: "name"))
            guard var claim = self.claim(ns.substring(with: match.range(withName: "claim"))) else { return nil }
            // "The work-kinetic energy theorem" reads "What does the work-kinetic energy theorem state?".
            if name.hasPrefix("The ") { name = "the" + name.dropFirst(3) }
            claim = claim.prefix(1).uppercased() + claim.dropFirst()
            return Fact(front: "What does \(name) state?", back: claim)
        }
        return nil
    }

    /// The claim a law's sentence makes, cut to one statement; nil where it is no claim a
    /// learner could recall out of the lecture (a pointer, the speaker, a broken-off phrase).
    static func claim(_ raw: String) -> String? {
        var claim = raw.trimmingCharacters(in: .whitespaces)
        while let last = claim.last, ".;:!".contains(last) { claim.removeLast() }
        // "…, which represents either the stretching or the compressing": a second statement.
        if let which = claim.range(of: ", which ") { claim = String(claim[..<which.lowerBound]) }
        // "the force on the spring, that the force on the object F is proportional to …": the
        // speaker starts again; the second start is the claim.
        if let restart = claim.range(of: ", that "), let first = claim.split(separator: " ").first,
           claim[restart.upperBound...].hasPrefix(first + " ") {
            claim = String(claim[restart.upperBound...])
        }
        // "the work done-- so again, the integral …": the sentence breaks off.
        guard !claim.contains("--"), !claim.contains("—"), !claim.hasSuffix("?") else { return nil }
        guard (4...40).contains(WordTokenizer.words(claim).count) else { return nil }
        if StandaloneSentence.pointing(claim) != nil || CardChecks.spokenTo(claim) != nil { return nil }
        if let last = WordTokenizer.words(claim).last.map(WordTokenizer.fold), CardChecks.danglingWords.contains(last) { return nil }
        return claim
    }

    // MARK: A quantity's SI unit

    /// SI units and the derived ones a first course names, folded, singular.
    static let units: Set<String> = [
        "joule", "newton", "watt", "kilogram", "meter", "metre", "second", "radian", "pascal", "hertz", "coulomb", "ampere",
        "volt", "ohm", "kelvin", "mole", "candela", "tesla", "farad", "henry", "weber", "siemens", "gram", "liter", "litre",
    ]

    private static let unitPatterns: [NSRegularExpression] = [
        // "The SI unit for kinetic energy is joule", "The SI unit of power is the watt (W) which …".
        #"\b[Tt]he SI units? (?:of|for) (?:the )?(?<quantity>[\p{Ll}][\p{Ll} -]{1,40}?) (?:is|are) (?:the |a |an )?(?<unit>[\p{Ll}]+(?: per [\p{Ll}]+)?(?: squared)?)(?<symbol> \([A-Za-zΩ]{1,3}\))?"#,
        // "in SI units, the units of mass are kilograms".
        #"\b[Ii]n SI units, the units? of (?:the )?(?<quantity>[\p{Ll}][\p{Ll} -]{1,40}?) (?:is|are) (?:the |a |an )?(?<unit>[\p{Ll}]+(?: per [\p{Ll}]+)?(?: squared)?)(?<symbol> \([A-Za-zΩ]{1,3}\))?"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// "The SI unit for kinetic energy is joule, so …" → "What is the SI unit of kinetic energy?" → "The joule".
    static func siUnit(in sentence: String) -> Fact? {
        guard sentence.contains("SI unit") else { return nil }
        let ns = sentence as NSString
        for pattern in unitPatterns {
            guard let match = pattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { continue }
            let quantity = ns.substring(with: match.range(withName: "quantity"))
            var unit = ns.substring(with: match.range(withName: "unit"))
            let words = unit.split(separator: " ").map(String.init)
            // "meters per second": each unit named, singular; anything else is no unit.
            let named = words.filter { $0 != "per" && $0 != "squared" }.map { $0.hasSuffix("s") && !units.contains($0) ? String($0.dropLast()) : $0 }
            guard !named.isEmpty, named.allSatisfy(units.contains),
                  (1...4).contains(WordTokenizer.words(quantity).count),
                  !quantity.split(separator: " ").contains(where: { CardChecks.contextWords.contains(String($0)) || StandaloneSentence.pointers.contains(String($0)) })
            else { continue }
            unit = words.map { word in word.hasSuffix("s") && !units.contains(word) && units.contains(String(word.dropLast())) ? String(word.dropLast()) : word }
                .joined(separator: " ")
            if match.range(withName: "symbol").location != NSNotFound { unit += ns.substring(with: match.range(withName: "symbol")) }
            return Fact(front: "What is the SI unit of \(quantity)?", back: "The \(unit)")
        }
        return nil
    }

    // MARK: What an idea is for

    private static let purposePattern = try! NSRegularExpression(
        pattern: #"^(?:So,? )?[Tt]he (?<what>idea|goal|aim|purpose|point) of (?<term>[\p{Ll}][\p{Ll}-]*(?: [\p{Ll}-]+){0,3}) is to (?<claim>.+)$"#)

    /// "The idea of transfer learning is to leverage the knowledge acquired by a model trained
    /// with lots of data on another task." → "What is the idea of transfer learning?" → "To leverage …".
    static func purpose(in sentence: String) -> Fact? {
        guard sentence.contains(" is to ") else { return nil }
        let ns = sentence as NSString
        guard let match = purposePattern.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)) else { return nil }
        let term = ns.substring(with: match.range(withName: "term"))
        guard !term.split(separator: " ").contains(where: { CardChecks.contextWords.contains(String($0)) || CardGrounding.functionWords.contains(String($0)) }),
              let claim = self.claim(ns.substring(with: match.range(withName: "claim"))) else { return nil }
        return Fact(front: "What is the \(ns.substring(with: match.range(withName: "what"))) of \(term)?", back: "To \(claim)")
    }
}
