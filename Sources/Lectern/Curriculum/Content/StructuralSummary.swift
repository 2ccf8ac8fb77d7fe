import Foundation

/// A summary of lecture notes written as definitions, theorems and examples ("Definition 8 …
/// heißt Metrik", "Satz 1.3 (Satz von Reidemeister) …"), from the blocks' own titles rather
/// than their sentences: sentences picked from such notes are proof steps and formula pieces
/// ("Sei X eine Menge.", "falls x 6= y"), while the notes say plainly what they define and
/// state. In the notes' language (German or English): the terms defined, the named theorems
/// with their statements where they read as prose, the examples by their titles.
enum StructuralSummary {
    enum Kind { case definition, theorem, example }

    /// One environment of the notes: its kind, its name as printed ("Satz 1.3"), its label
    /// ("Satz von Reidemeister") and its text up to the next environment.
    struct Environment {
        var kind: Kind
        var name: String
        var label: String?
        var body: String
    }

    static let names: [String: Kind] = [
        "definition": .definition, "satz": .theorem, "theorem": .theorem, "lemma": .theorem, "korollar": .theorem,
        "folgerung": .theorem, "proposition": .theorem, "corollary": .theorem, "hauptsatz": .theorem,
        "beispiel": .example, "example": .example,
    ]

    /// An environment's opener: its name and number, where a line starts or followed by what
    /// opens a statement (a bracket, a colon, a capital: "Definition 16 Ein topologischer Raum …"),
    /// so that a reference in running text ("in Definition 31.a hängt", "vgl. Satz 2") is none;
    /// then an optional label in brackets. Remarks and figures are openers too: they end the
    /// statement before them.
    private static let opener = try! NSRegularExpression(
        pattern: #"(?<![\p{L}\p{N}(.,])(Definition|Satz|Theorem|Lemma|Korollar|Folgerung|Proposition|Corollary|Hauptsatz|Beispiel|Example|Bemerkung|Remark|Abbildung|Figure)[ \t]+(\d+(?:\.\d+)*)\.?(?=[ \t]*(?:\(|:|\n|$|[\p{Lu}∀∃„"“]))(?:[ \t]*\(([^()\n]{2,60})\))?"#,
        options: [.anchorsMatchLines])
    /// A proof ("Beweis:", "Proof.") ends the statement before it.
    private static let proof = try! NSRegularExpression(pattern: #"(?<![\p{L}])(?:Beweis|Proof|Preuve)[.:]"#)

    /// The summary, or nil where the notes are not written this way (fewer than two definitions
    /// and theorems, or nothing to name).
    static func summary(of passages: [Passage]) -> String? {
        let text = passages.filter { $0.kind == .text || $0.kind == .list }.map(\.text).joined(separator: "\n")
        let environments = self.environments(in: text)
        guard environments.filter({ $0.kind != .example }).count >= 2 else { return nil }
        let german = isGerman(text)
        var terms: [String] = []
        for environment in environments where environment.kind == .definition {
            for term in definedTerms(in: environment.body) where !terms.contains(term) { terms.append(term) }
        }
        // Named theorems: with their statement where it reads as prose, else by name in one sentence.
        var theorems: [String] = []
        var named: [String] = []
        for environment in environments where environment.kind == .theorem {
            guard let label = environment.label else { continue }
            let name = "\(environment.name) (\(label))"
            if let statement = statement(environment.body), theorems.count < 2 {
                theorems.append("\(name): \(statement)")
            } else {
                named.append(name)
            }
        }
        let examples = environments.filter { $0.kind == .example }.compactMap(\.label).map(MathText.repairingGlyphs)
        guard !terms.isEmpty || !theorems.isEmpty || !named.isEmpty else { return nil }
        var sentences: [String] = []
        if !terms.isEmpty {
            let quoted = terms.prefix(6).map { german ? "„\($0)“" : "“\($0)”" }
            sentences.append(german ? "Der Abschnitt definiert \(list(quoted, and: "und"))." : "The section defines \(list(quoted, and: "and")).")
        }
        for theorem in theorems {
            sentences.append(theorem.hasSuffix(".") ? theorem : theorem + ".")
        }
        if !named.isEmpty {
            let listed = list(Array(named.prefix(4)), and: german ? "und" : "and")
            sentences.append(german ? "Der Abschnitt enthält \(listed)." : "The section states \(listed).")
        }
        if !examples.isEmpty {
            sentences.append((german ? "Beispiele: " : "Examples: ") + examples.prefix(4).joined(separator: "; ") + ".")
        }
        return sentences.joined(separator: " ")
    }

    static func list(_ items: [String], and: String) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(and) " + items.last!
    }

    /// The environments in order; a remark, proof or figure ends the one before it.
    static func environments(in text: String) -> [Environment] {
        let range = NSRange(text.startIndex..., in: text)
        let openers = opener.matches(in: text, range: range)
        let ends = (openers.map(\.range.location) + proof.matches(in: text, range: range).map(\.range.location)).sorted()
        var result: [Environment] = []
        var seen: Set<String> = []
        for match in openers {
            guard let nameRange = Range(match.range(at: 1), in: text), let numberRange = Range(match.range(at: 2), in: text),
                  let whole = Range(match.range, in: text), let kind = names[text[nameRange].lowercased()] else { continue }
            let name = String(text[nameRange]) + " " + String(text[numberRange])
            // Overlapping passages repeat an environment: it counts once.
            guard seen.insert(name).inserted else { continue }
            let next = ends.first { $0 > match.range.location }.flatMap { Range(NSRange(location: $0, length: 0), in: text)?.lowerBound } ?? text.endIndex
            guard whole.upperBound <= next else { continue }
            let label = Range(match.range(at: 3), in: text).map { TextCleanup.collapseWhitespace(String(text[$0])) }
            result.append(Environment(kind: kind, name: name, label: label, body: String(text[whole.upperBound..<next])))
        }
        return result
    }

    /// "X heißt Metrik, wenn …" → "Metrik"; "… is called a metric space." → "metric space"; a
    /// definition without such a clause names its term first ("Eine Jordankurve in X ist …").
    static func definedTerms(in body: String) -> [String] {
        let text = MathText.repairingGlyphs(TextCleanup.collapseWhitespace(body))
        var terms: [String] = []
        let range = NSRange(text.startIndex..., in: text)
        for match in called.matches(in: text, range: range) {
            guard let found = Range(match.range(at: 1), in: text), let term = cleanTerm(String(text[found])) else { continue }
            if !terms.contains(term) { terms.append(term) }
        }
        // Without such a clause, the term the definition's sentence opens on, after its setting ("Sei X …").
        if terms.isEmpty {
            for sentence in SentenceSplitter.split(text).prefix(3).map(\.text) {
                let whole = NSRange(sentence.startIndex..., in: sentence)
                if let match = subject.firstMatch(in: sentence, range: whole), let found = Range(match.range(at: 1), in: sentence) {
                    terms.append(String(sentence[found]))
                    break
                }
            }
        }
        return terms
    }

    private static let called = try! NSRegularExpression(
        pattern: #"\b(?:heißt|heißen|nennt man|is called|are called|is said to be|are said to be|we call)\s+(.{2,80}?)(?=\s*(?:[,.;:]|\s(?:wenn|falls|if|when|provided|sofern|genau dann|und|and|von [A-Z]\b|auf [A-Z]\b|in [a-z]\b|genannt)\b|$))"#)
    private static let subject = try! NSRegularExpression(pattern: #"^(?:Ein|Eine|Einen|A|An)\s+(\p{Lu}[\p{L}-]{3,})\s(?:[^.]{0,80}?)\b(?:ist|is)\b"#)

    /// A term as the notes print it, without the symbol and article before it ("ϕ eine
    /// Isometrie" → "Isometrie"); nil for formula pieces and clauses.
    static func cleanTerm(_ raw: String) -> String? {
        var words = raw.split(separator: " ").map(String.init)
        let articles: Set<String> = ["ein", "eine", "einen", "einer", "der", "die", "das", "dann", "auch", "es", "a", "an", "the", "also"]
        func isSymbol(_ word: String) -> Bool {
            word.count == 1 || !word.contains(where: \.isLetter) || (word.count <= 2 && word.contains(where: { $0.isUppercase || $0.isNumber }))
                || word.unicodeScalars.contains(where: isMath)
        }
        while let first = words.first, articles.contains(first.lowercased()) || isSymbol(first) {
            words.removeFirst()
        }
        // "Eigenwert von f", "Rand von X": the symbol the term is of is not part of it.
        while words.count >= 3, ["von", "auf", "in", "of", "on", "bzgl."].contains(words[words.count - 2]), isSymbol(words[words.count - 1]) {
            words.removeLast(2)
        }
        // A bracketed qualifier stays ("(lokale) reguläre Parametrisierung"); a bracket of a formula does not.
        let bracketed = words.contains { word in
            (word.contains("(") || word.contains(")")) && !(word.hasPrefix("(") && word.hasSuffix(")") && word.dropFirst().dropLast().allSatisfy(\.isLetter))
        }
        guard (1...4).contains(words.count), !bracketed, !words.contains(where: { $0.unicodeScalars.contains(where: isMath) }),
              words.allSatisfy({ $0.count > 1 || $0.first?.isLetter == true && words.count > 1 }),
              !words.contains(where: { ["ist", "sind", "is", "are", "wenn", "und", "oder", "and", "or", "gilt"].contains($0.lowercased()) }) else { return nil }
        let term = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: "„“”\"'"))
        return term.filter(\.isLetter).count >= 3 ? term : nil
    }

    static func isMath(_ scalar: Unicode.Scalar) -> Bool {
        // Operators (U+2200–22FF: ∆, ∑, ⊆ …), arrows, Greek letters.
        "=<>|\\{}[]^_×".unicodeScalars.contains(scalar) || (0x0370...0x03FF).contains(scalar.value)
            || (0x2190...0x21FF).contains(scalar.value) || (0x2200...0x22FF).contains(scalar.value)
    }

    /// A theorem's statement when it reads as prose: its first sentence (with the next, after a
    /// setting "Sei …"), broken glyphs repaired, at most 50 words and mostly words, not symbols.
    static func statement(_ body: String) -> String? {
        let text = MathText.repairingGlyphs(TextCleanup.collapseWhitespace(body))
        let sentences = SentenceSplitter.split(text).map(\.text)
        guard var first = sentences.first, let opening = first.first, opening.isUppercase else { return nil }
        // A setting ("Sei S eine kompakte Fläche.") is no claim: the claim follows it.
        if first.range(of: #"^(Sei|Seien|Es sei|Es seien|Let)\b"#, options: .regularExpression) != nil {
            guard sentences.count > 1 else { return nil }
            first += " " + sentences[1]
        }
        let tokens = first.split(separator: " ")
        guard (5...50).contains(tokens.count), ".!".contains(first.last ?? " ") else { return nil }
        // Symbols: a single letter ("x"), a letter with its index ("R2", "x1"), anything with an operator.
        let symbolic = tokens.filter { token in
            let letters = token.filter(\.isLetter)
            return letters.count <= 1 || token.contains(where: \.isNumber) || token.unicodeScalars.contains(where: isMath)
        }.count
        guard Double(symbolic) <= 0.35 * Double(tokens.count), closes(first) else { return nil }
        return first
    }

    /// Brackets that close: a statement cut inside a formula does not.
    static func closes(_ text: String) -> Bool {
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] where text.components(separatedBy: open).count != text.components(separatedBy: close).count {
            return false
        }
        return true
    }

    /// Whether the notes are German: more of its commonest function words than of English's.
    static func isGerman(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter })
        let german: Set<Substring> = ["der", "die", "das", "und", "ist", "ein", "eine", "nicht", "mit", "von", "für", "sei", "gilt", "auf", "wenn"]
        let english: Set<Substring> = ["the", "and", "is", "of", "to", "a", "in", "that", "for", "let", "if", "with", "on", "are"]
        return words.filter { german.contains($0) }.count > words.filter { english.contains($0) }.count
    }
}
