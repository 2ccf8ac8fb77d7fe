import Foundation

/// A relation between quantities that a source states as a law or a definition, read from a
/// sentence: "Newton's second law, F equals m a" (a lecturer's speech), "the momentum … is
/// defined as the mass times the velocity", "the displacement vector is defined as \(Δr = …\)".
/// Only relations the sentence names (a law, or the quantity on the left) are read: a
/// problem's "T is equal to m 2 a plus m 2 g" names nothing a learner could be asked for.
/// (Here in Summarize, not Cards: the cards ask for these relations and lecture summaries say them.)
struct FormulaStatement: Equatable, Sendable {
    /// What the relation is: "Newton's second law (general form)", "momentum".
    var name: String
    /// LaTeX of each side, as MathJax reads it between `\(` and `\)`.
    var lhs: String
    var rhs: String
    /// "m: the mass" for each symbol the sentence named in words (may be empty).
    var meanings: [String]
    /// A page's summary line ("Velocity: \(\vec{v} = r\dot\theta\hat\theta\)") holds for what its
    /// section is about: its name alone may not say where it holds.
    var fromSummaryLine = false
    /// The sentence the relation was read from, where one was (a card links to when it is said);
    /// not part of what the relation is.
    var said: String? = nil

    static func == (lhs: FormulaStatement, rhs: FormulaStatement) -> Bool {
        lhs.name == rhs.name && lhs.lhs == rhs.lhs && lhs.rhs == rhs.rhs && lhs.meanings == rhs.meanings && lhs.fromSummaryLine == rhs.fromSummaryLine
    }

    /// `\(F = m a\)`: the relation as the card shows it (Anki renders it with MathJax).
    var display: String { "\\(\(lhs) = \(rhs)\\)" }
}

enum FormulaStatements {
    /// The relations `text` states, sentence by sentence, each once.
    static func statements(in text: String) -> [FormulaStatement] {
        // Most prose states no formula: a look for the words every reading needs keeps a book fast.
        guard mayState(text) else { return [] }
        var found: [FormulaStatement] = []
        let lines = text.split(separator: "\n").map(String.init)
        // A quantity the passage names may be written by its symbol alone: "Remember, p equals mv."
        let lowered = text.lowercased()
        let named = Set(definedQuantities.filter { Self.names(lowered, $0.name) }.map(\.symbol))
        for statement in displayedDefinitions(lines) where !found.contains(statement) { found.append(statement) }
        for line in lines {
            if line.contains("\\("), let statement = summaryLine(String(line)) {
                if !found.contains(statement) { found.append(statement) }
                continue
            }
            let sentences = SentenceSplitter.split(String(line)).map { TextCleanup.collapseWhitespace($0.text).trimmingCharacters(in: .whitespaces) }
            for (index, sentence) in sentences.enumerated() {
                for var statement in statements(inSentence: sentence, named: named) where !found.contains(statement) {
                    statement.said = sentence
                    found.append(statement)
                }
                // "I'm going to define what we actually call the angular velocity as omega. And I'm
                // going to write that as d theta dt.": a definition said across two sentences.
                if index + 1 < sentences.count, sentence.contains("define"), var carried = carriedDefinition(sentence, sentences[index + 1]),
                   !found.contains(carried) {
                    carried.said = sentence
                    found.append(carried)
                }
            }
        }
        return found
    }

    /// The relation without spacing, to tell two statements of one relation ("τ = I α", "τ = I·α").
    static func relationKey(_ statement: FormulaStatement) -> String {
        (statement.lhs + "=" + statement.rhs).replacingOccurrences(of: #"\\,|\\cdot|\s"#, with: "", options: .regularExpression)
    }

    /// Whether `text` holds a word that every relation read here needs: a typeset formula,
    /// "equals"/"equal to", or an operator spoken ("times", "divided by", "squared", "the sum
    /// of", "the derivative of").
    static func mayState(_ text: String) -> Bool {
        text.contains("equal") || text.contains("\\(") || text.contains(" times ") || text.contains(" divided by ") || text.contains(" squared")
            || text.contains(" cross ") || text.contains("given by") || text.contains("sum of") || text.contains("derivative of")
            || text.contains(" over delta") || text.contains("absolute value") || text.contains("one half") || mayDefine(text)
    }

    /// Whether `text` may define a quantity in speech: "define" with a word of the spoken
    /// definitions read here ("write that as", "squared", "1/2", "d theta"); a book's many
    /// "define"s alone are not read sentence by sentence.
    static func mayDefine(_ text: String) -> Bool {
        text.contains("define") && (text.contains(" write ") || text.contains(" squared") || text.contains("1/2") || text.contains(" d "))
    }

    static func statements(inSentence sentence: String, named: Set<String> = []) -> [FormulaStatement] {
        guard mayState(sentence) else { return [] }
        // A hypothetical, a question or an exercise states no law.
        let lowered = sentence.lowercased()
        guard !sentence.hasSuffix("?"), !hypothetical.matches(withoutNaming(lowered)) else { return [] }
        // (A page's "If at time \(t_1\) …, X is defined as …" sets up the symbols of its definition.)
        if sentence.contains("\\(") {
            return typesetDefinition(in: sentence).map { [$0] } ?? []
        }
        guard !conditional.matches(lowered) else { return [] }
        var result: [FormulaStatement] = []
        if lowered.contains("law") { result += namedLaws(in: sentence) }
        if let quantity = spokenQuantity(in: sentence) { result.append(quantity) }
        if let verbal = verbalDefinition(in: sentence) { result.append(verbal) }
        if let called = calledQuantity(in: sentence), !result.contains(where: { $0.lhs == called.lhs }) { result.append(called) }
        if result.isEmpty, lowered.contains("define"), let defined = definedAs(in: sentence), isComposed(defined.rhs) {
            result.append(defined)
        }
        if result.isEmpty { result += symbolRelations(in: sentence, named: named) }
        return result
    }

    /// `lowered` without "what we (actually) call", which names a quantity and asks nothing.
    static func withoutNaming(_ lowered: String) -> String {
        guard lowered.contains("what we") else { return lowered }
        return lowered.replacingOccurrences(of: #"\bwhat we (?:actually |will |'ll |now )?call\b"#, with: "", options: .regularExpression)
    }

    private static let hypothetical = TextPattern(#"\b(?:suppose|imagine|find|what|let's say|assume)\b"#)
    private static let conditional = TextPattern(#"\b(?:if|were)\b"#)

    // MARK: Spoken mathematics

    /// A sentence's words with whether a boundary (a comma, a dash, the sentence's end) follows each.
    struct Token {
        let word: String
        let boundaryAfter: Bool
    }

    static func tokens(_ sentence: String) -> [Token] {
        let pieces = sentence.replacingOccurrences(of: "--", with: " , ").split(separator: " ").map(String.init)
        var result: [Token] = []
        for (index, piece) in pieces.enumerated() {
            if piece == "," || piece == "—" { continue }
            let trimmed = piece.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:!?()\"“”"))
            guard !trimmed.isEmpty else { continue }
            let boundary = piece.last.map { ",.;:!?)".contains($0) } == true || index == pieces.count - 1
                || (index + 1 < pieces.count && [",", "—"].contains(pieces[index + 1]))
            result.append(Token(word: trimmed, boundaryAfter: boundary))
        }
        return result
    }

    static let greek: [String: String] = [
        "alpha": "\\alpha", "beta": "\\beta", "gamma": "\\gamma", "delta": "\\Delta", "theta": "\\theta", "omega": "\\omega",
        "tau": "\\tau", "mu": "\\mu", "lambda": "\\lambda", "phi": "\\phi", "rho": "\\rho", "sigma": "\\sigma",
    ]

    /// Two-letter words a transcript holds that are English, not a product of symbols.
    private static let englishPairs: Set<String> = [
        "is", "to", "of", "at", "in", "if", "so", "we", "on", "or", "as", "an", "be", "by", "do", "go", "he", "it", "me",
        "my", "no", "up", "us", "am", "oh", "ok", "hi", "cm",
    ]

    /// One spoken symbol or product of symbols as LaTeX: "F", "ma" → "m a", "tau" → "\tau",
    /// "dp/dt", "dpdt" → "\frac{dp}{dt}", "1/2mv" → "\frac{1}{2} m v"; nil for any other word.
    static func symbol(_ word: String) -> String? {
        if let letter = greek[word.lowercased()] { return letter }
        // Transcripts write the moment of inertia "I" as "i".
        if word == "i" { return "I" }
        // (Byte checks: a regular expression per word cost the cards' generation more than the rest of their reading.)
        let bytes = word.utf8
        if bytes.count == 1, let byte = bytes.first, (65...90).contains(byte) || (97...122).contains(byte) { return word }
        if bytes.count == 2, bytes.allSatisfy({ (97...122).contains($0) }), !englishPairs.contains(word) {
            return word.map(String.init).joined(separator: " ")
        }
        if let match = word.firstMatch(of: /^d([a-zA-Z])\/?d([a-z])$/) { return "\\frac{d\(match.1)}{d\(match.2)}" }
        if let match = word.firstMatch(of: /^(\d)\/(\d)([a-z]{0,2})$/) {
            let fraction = "\\frac{\(match.1)}{\(match.2)}"
            return match.3.isEmpty ? fraction : fraction + " " + match.3.map(String.init).joined(separator: " ")
        }
        return nil
    }

    private static let operators: [String: String] = ["plus": "+", "minus": "-", "times": "\\cdot", "over": "/", "squared": "^2", "cubed": "^3", "cross": "\\times"]

    /// Words a spoken formula may end before: what a sentence goes on with after it.
    private static let followers: Set<String> = [
        "which", "that", "where", "for", "to", "so", "and", "is", "in", "tells", "applying", "analysis", "or", "as", "when",
        "because", "since", "relation", "law", "equation",
    ]

    /// The right-hand side spoken from `start`: symbols joined by operator words, up to a
    /// boundary or a word that continues the sentence. Nil when a word of no formula interrupts
    /// it, a symbol carries a problem's index ("m1"), or it holds no symbol.
    static func spokenSide(_ tokens: [Token], from start: Int) -> (latex: String, end: Int)? {
        var parts: [String] = []
        var index = start
        var symbols = 0
        while index < tokens.count {
            let word = tokens[index].word
            if let (compound, end) = compoundSymbol(tokens, at: index) {
                parts.append(compound)
                symbols += 1
                if tokens[end - 1].boundaryAfter { index = end; break }
                index = end
                continue
            }
            if let op = operators[word.lowercased()] {
                // "minus" opening a side is a sign; "squared" needs something to square.
                if op == "^2" || op == "^3" {
                    guard !parts.isEmpty else { return nil }
                    parts[parts.count - 1] += op
                } else {
                    parts.append(op)
                }
            } else if word.lowercased() == "the", index + 2 < tokens.count, tokens[index + 1].word.lowercased() == "time",
                      tokens[index + 2].word.lowercased() == "derivative" {
                return nil
            } else if let symbol = symbol(word) {
                parts.append(symbol)
                symbols += 1
            } else if word.contains(where: \.isNumber), word.allSatisfy({ $0.isNumber || $0 == "/" }) {
                // "1/2 times …": the fraction as it is typeset.
                let halves = word.split(separator: "/")
                parts.append(halves.count == 2 ? "\\frac{\(halves[0])}{\(halves[1])}" : word)
            } else {
                break
            }
            if tokens[index].boundaryAfter { index += 1; break }
            index += 1
        }
        guard symbols > 0, let last = parts.last, !["+", "-", "\\cdot", "/", "\\times"].contains(last), parts.count <= 8 else { return nil }
        // "… is equal to delta K, the change in kinetic energy, plus delta U, …": a side cut by an
        // aside before it goes on is cut short.
        if index < tokens.count, tokens[index - 1].boundaryAfter, let aside = tokens[index...].prefix(8).firstIndex(where: \.boundaryAfter),
           aside + 1 < tokens.count, ["plus", "minus", "times", "over"].contains(tokens[aside + 1].word.lowercased()) { return nil }
        // "dr, dt": a side cut by a comma before another symbol is cut short.
        if index < tokens.count, tokens[index - 1].boundaryAfter, symbol(tokens[index].word) != nil, tokens[index].word.count <= 2 { return nil }
        // A formula running into a word that is no continuation ("equals a constant") is no formula.
        if index < tokens.count, !tokens[index - 1].boundaryAfter, !followers.contains(tokens[index].word.lowercased()) { return nil }
        var latex = parts.joined(separator: " ")
        if latex.hasPrefix("- ") { latex = "-" + latex.dropFirst(2) }
        return (latex, index)
    }

    /// Subscripts a spoken symbol carries: "omega z" → \omega_z, "v cm" → v_{cm}.
    private static let componentSubscripts: Set<String> = ["x", "y", "z"]

    /// A symbol spoken in several words, from token `index`, with the index after it: "one half"
    /// → \frac{1}{2}, "d theta dt" → \frac{d\theta}{dt}, "delta x" → \Delta x, "sine of theta" →
    /// \sin\theta, "the absolute value of omega" → |\omega|, "omega z" → \omega_z, "v cm" → v_{cm}.
    /// Nil where the words are not one (a boundary inside them, a word of no symbol).
    static func compoundSymbol(_ tokens: [Token], at index: Int) -> (latex: String, end: Int)? {
        func word(_ at: Int) -> String { at < tokens.count ? tokens[at].word.lowercased() : "" }
        // No boundary inside the words read, from `index` to `end`.
        func whole(_ end: Int) -> Bool { end <= tokens.count && !tokens[index..<(end - 1)].contains { $0.boundaryAfter } }
        // One letter or a Greek one, as LaTeX.
        func letter(_ at: Int) -> String? {
            guard at < tokens.count else { return nil }
            let spoken = tokens[at].word
            if let greek = greek[spoken.lowercased()], spoken.lowercased() != "delta" { return greek }
            return spoken.utf8.count == 1 && spoken.first!.isLetter ? (spoken == "i" ? "I" : spoken) : nil
        }
        let first = word(index)
        if first == "one", word(index + 1) == "half", whole(index + 2) { return ("\\frac{1}{2}", index + 2) }
        if first == "d", let varied = letter(index + 1), word(index + 2) == "dt", whole(index + 3) { return ("\\frac{d\(varied)}{dt}", index + 3) }
        if first == "delta", let varied = letter(index + 1), whole(index + 2) { return ("\\Delta \(varied)", index + 2) }
        if ["sine", "cosine"].contains(first) {
            let at = word(index + 1) == "of" ? index + 2 : index + 1
            if let angle = letter(at), angle.hasPrefix("\\"), whole(at + 1) { return ((first == "sine" ? "\\sin" : "\\cos") + angle, at + 1) }
        }
        if first == "the", ["absolute", "magnitude"].contains(word(index + 1)) {
            let at = word(index + 1) == "absolute" && word(index + 2) == "value" ? index + 3 : index + 2
            if word(at) == "of", !tokens[at].boundaryAfter {
                if let (value, end) = compoundSymbol(tokens, at: at + 1), whole(end) { return ("|\(value)|", end) }
                if let value = letter(at + 1), whole(at + 2) { return ("|\(value)|", at + 2) }
            }
        }
        // A Greek letter's component ("omega z"); a letter's centre of mass ("v cm", "Icm").
        if let greekLetter = greek[first], first != "delta", componentSubscripts.contains(word(index + 1)), !tokens[index].boundaryAfter {
            return ("\(greekLetter)_\(word(index + 1))", index + 2)
        }
        if let plain = letter(index), !plain.hasPrefix("\\"), word(index + 1) == "cm", !tokens[index].boundaryAfter { return ("\(plain)_{cm}", index + 2) }
        let spoken = tokens[index].word
        if spoken.utf8.count == 3, spoken.hasSuffix("cm"), spoken.first!.isLetter { return ("\(spoken.first == "i" ? "I" : String(spoken.first!))_{cm}", index + 1) }
        return nil
    }

    /// A side that relates symbols, not one symbol alone ("m v", "\frac{d\theta}{dt}", "v^2").
    static func isComposed(_ side: String) -> Bool {
        side.contains(" ") || side.contains("\\frac") || side.contains("^") || side.contains("|")
    }

    /// Where "equals" or "is equal to" stands after token `at`: the index of the right-hand side.
    static func equalsSign(_ tokens: [Token], at index: Int) -> Int? {
        let word = tokens[index].word.lowercased()
        if word == "equals" { return index + 1 }
        if word == "is", index + 2 < tokens.count, tokens[index + 1].word.lowercased() == "equal", tokens[index + 2].word.lowercased() == "to" {
            return index + 3
        }
        return nil
    }

    /// A spoken relation "<symbol> equals <side>" whose left side starts at `index`.
    static func spokenRelation(_ tokens: [Token], at index: Int) -> (lhs: String, rhs: String, end: Int)? {
        guard index + 2 < tokens.count, !tokens[index].boundaryAfter,
              let lhs = symbol(tokens[index].word), !lhs.contains(" "), let sideStart = equalsSign(tokens, at: index + 1),
              let (rhs, end) = spokenSide(tokens, from: sideStart), rhs != lhs else { return nil }
        // "F RL equals …": a symbol with a problem's labels.
        if index > 0, !tokens[index - 1].boundaryAfter, symbol(tokens[index - 1].word) != nil, tokens[index - 1].word.count <= 2,
           !["a"].contains(tokens[index - 1].word) { return nil }
        return (lhs, rhs, end)
    }

    // MARK: Named laws

    /// Words that may stand between a law's name and the relation it names.
    private static let lawJoiners: Set<String> = ["is", "that", "the", "of", "motion", "in", "its", "rotational", "form", "written", "as", "analogous", "to", "an", "a"]

    /// "Newton's second law, F equals m a", "the more general form of Newton's Second Law is
    /// that F equals dp/dt", "Newton's second law in its rotational form is tau is equal to I alpha".
    static func namedLaws(in sentence: String) -> [FormulaStatement] {
        let tokens = tokens(sentence)
        var result: [FormulaStatement] = []
        var index = 0
        while index < tokens.count {
            guard let (name, nameEnd) = lawName(tokens, at: index) else { index += 1; continue }
            var at = nameEnd
            while at < tokens.count, at - nameEnd <= 6, lawJoiners.contains(tokens[at].word.lowercased()), spokenRelation(tokens, at: at) == nil {
                at += 1
            }
            if let relation = spokenRelation(tokens, at: at) {
                let window = tokens[max(0, index - 5)..<at].map { $0.word.lowercased() }
                var qualified = name
                if window.contains("rotational") { qualified += " (rotational form)" }
                else if window.contains("general") { qualified += " (general form)" }
                result.append(FormulaStatement(name: qualified, lhs: relation.lhs, rhs: relation.rhs, meanings: []))
                index = relation.end
            } else {
                index = nameEnd
            }
        }
        return result
    }

    /// "Newton's second law" or "Hooke's law" starting at token `index`, with the index after it.
    static func lawName(_ tokens: [Token], at index: Int) -> (String, Int)? {
        let word = tokens[index].word
        guard word.hasSuffix("'s") || word.hasSuffix("’s"), word.first?.isUppercase == true else { return nil }
        var at = index + 1
        var words = [word.replacingOccurrences(of: "’", with: "'")]
        if at < tokens.count, ["first", "second", "third"].contains(tokens[at].word.lowercased()) {
            words.append(tokens[at].word.lowercased())
            at += 1
        }
        guard at < tokens.count, tokens[at].word.lowercased() == "law" else { return nil }
        words.append("law")
        return (words.joined(separator: " "), at + 1)
    }

    // MARK: Named quantities

    /// Quantities of mechanics by their names and their usual symbols: how "the mass times the
    /// velocity" is written "m v". A relation is read only from the sentence; this only spells it.
    static let quantities: [(name: String, symbol: String)] = [
        ("total mechanical energy", "E"), ("mechanical energy", "E"), ("angular momentum", "L"), ("angular acceleration", "\\alpha"), ("angular velocity", "\\omega"), ("moment of inertia", "I"),
        ("kinetic energy", "K"), ("potential energy", "U"), ("momentum", "p"), ("mass", "m"), ("velocity", "v"),
        ("acceleration", "a"), ("force", "F"), ("torque", "\\tau"), ("impulse", "J"), ("work", "W"), ("power", "P"),
        ("time", "t"), ("speed", "v"), ("radius", "r"),
    ]

    /// Quantities a lecture names in more words than `quantities` (which a card's key terms come
    /// from too), read first: "the kinetic energy of rotation", "the angular speed".
    static let spokenQuantities: [(name: String, symbol: String)] = [
        ("kinetic energy of rotation", "K_{rot}"), ("rotational kinetic energy", "K_{rot}"), ("average velocity", "v_{avg}"),
        ("average acceleration", "a_{avg}"), ("angular speed", "\\omega"), ("non-conservative work", "W_{nc}"), ("work non-conservative", "W_{nc}"),
    ]

    /// Names a lecturer says in the other order ("work non-conservative"), by their usual order.
    private static let inverted = ["work non-conservative": "non-conservative work"]

    /// The quantity named at token `index` ("moment of inertia"), with its symbol and the index after it.
    static func quantity(_ tokens: [Token], at index: Int) -> (name: String, symbol: String, end: Int)? {
        for (name, symbol) in spokenQuantities + quantities {
            let words = name.split(separator: " ").map(String.init)
            guard index + words.count <= tokens.count,
                  zip(tokens[index..<(index + words.count)], words).allSatisfy({ $0.word.lowercased() == $1 }) else { continue }
            return (inverted[name] ?? name, symbol, index + words.count)
        }
        return nil
    }

    /// The verbs that make a quantity's definition: "is defined as", "is given by", "is just".
    private static func definingVerb(_ tokens: [Token], at index: Int) -> Int? {
        let words = tokens[index...].prefix(3).map { $0.word.lowercased() }
        for phrase in [["is", "defined", "as"], ["is", "defined", "to", "be"], ["is", "given", "by"], ["is", "just"], ["is", "equal", "to"], ["equals"], ["is"]]
        where words.starts(with: phrase) && !(tokens[index..<(index + phrase.count)].dropLast().contains { $0.boundaryAfter }) {
            return index + phrase.count
        }
        return nil
    }

    /// The sentence's subject: "[the] <quantity>[, for a point like mass,]", from its first words.
    /// A named quantity opening a sentence: its name, symbol, qualifier ("for a point like mass") and
    /// the token after it.
    private typealias Subject = (name: String, symbol: String, qualifier: String, end: Int)

    private static func subjectQuantities(_ tokens: [Token]) -> [Subject] {
        var found: [Subject] = []
        // The subject may follow an opener: "Now, …", "… I'll just tell you that the momentum …".
        for start in tokens.indices {
            var at = start
            guard start == 0 || ["that", "the"].contains(tokens[start].word.lowercased()) || tokens[start - 1].boundaryAfter else { continue }
            // "the change in the potential energy is …" is not about the potential energy.
            if start > 0, tokens[start].word.lowercased() == "the", !tokens[start - 1].boundaryAfter,
               ["in", "minus", "plus", "times"].contains(tokens[start - 1].word.lowercased()) { continue }
            if tokens[at].word.lowercased() == "that", at + 1 < tokens.count { at += 1 }
            if tokens[at].word.lowercased() == "the", at + 1 < tokens.count { at += 1 }
            guard let quantity = quantity(tokens, at: at) else { continue }
            // "the momentum of the system" names a quantity of something in the lecture, not the quantity.
            if quantity.end < tokens.count, ["of", "at", "in"].contains(tokens[quantity.end].word.lowercased()) { continue }
            var end = quantity.end
            var qualifier = ""
            // "the momentum, for a point like mass, is …".
            if tokens[end - 1].boundaryAfter, end < tokens.count, tokens[end].word.lowercased() == "for" {
                var close = end
                while close < tokens.count, close - end < 6, !tokens[close].boundaryAfter { close += 1 }
                guard close < tokens.count, close - end < 6 else { continue }
                qualifier = tokens[end...close].map(\.word).joined(separator: " ").replacingOccurrences(of: "point like", with: "point-like")
                end = close + 1
            } else if tokens[end - 1].boundaryAfter {
                continue
            }
            found.append((quantity.name, quantity.symbol, qualifier, end))
        }
        return found
    }

    /// "the kinetic energy is 1/2mv squared": a named quantity and what it is, spoken.
    static func spokenQuantity(in sentence: String) -> FormulaStatement? {
        firstStatement(in: sentence, reading: spokenQuantity)
    }

    /// The first statement `read` makes of the sentence's named quantities.
    private static func firstStatement(in sentence: String, reading read: ([Token], Subject) -> FormulaStatement?) -> FormulaStatement? {
        let tokens = tokens(sentence)
        for subject in subjectQuantities(tokens) {
            if let statement = read(tokens, subject) { return statement }
        }
        return nil
    }

    /// "momentum (for a point-like mass)": the quantity's name with its qualifier.
    private static func qualifiedName(_ subject: Subject) -> String {
        subject.name + (subject.qualifier.isEmpty ? "" : " (\(subject.qualifier))")
    }

    private static func spokenQuantity(_ tokens: [Token], subject: Subject) -> FormulaStatement? {
        guard subject.end < tokens.count, var sideStart = definingVerb(tokens, at: subject.end) else { return nil }
        // "Torque is defined as the cross product, R cross F": the operation named before its symbols.
        if sideStart + 3 < tokens.count, tokens[sideStart].word.lowercased() == "the",
           ["cross", "dot", "vector", "scalar"].contains(tokens[sideStart + 1].word.lowercased()),
           tokens[sideStart + 2].word.lowercased() == "product", tokens[sideStart + 2].boundaryAfter {
            sideStart += 3
        }
        guard let (rhs, end) = spokenSide(tokens, from: sideStart), end >= tokens.count || tokens[end - 1].boundaryAfter,
              rhs != subject.symbol,
              // "the acceleration is g": one symbol is a problem's value, not a relation.
              isComposed(rhs) else { return nil }
        return FormulaStatement(name: qualifiedName(subject),
                                lhs: subject.symbol, rhs: rhs, meanings: [])
    }

    /// "the momentum, for a point like mass, is defined as the mass times the velocity": a
    /// quantity defined in words from other named quantities, written with their symbols.
    static func verbalDefinition(in sentence: String) -> FormulaStatement? {
        firstStatement(in: sentence, reading: verbalDefinition)
    }

    private static func verbalDefinition(_ tokens: [Token], subject: Subject) -> FormulaStatement? {
        guard subject.end < tokens.count, let start = definingVerb(tokens, at: subject.end) else { return nil }
        if let composed = composedSide(tokens, from: start), !composed.symbols.contains(subject.symbol) {
            return FormulaStatement(name: qualifiedName(subject),
                                    lhs: subject.symbol, rhs: composed.latex, meanings: composed.meanings)
        }
        var parts: [String] = []
        var meanings: [String] = []
        var at = start
        var expectQuantity = true
        while at < tokens.count {
            if expectQuantity {
                var spelled = at
                if tokens[spelled].word.lowercased() == "the" { spelled += 1 }
                // "the change in kinetic energy" → \Delta K.
                var change = ""
                if spelled + 2 < tokens.count, tokens[spelled].word.lowercased() == "change", tokens[spelled + 1].word.lowercased() == "in",
                   !tokens[spelled].boundaryAfter, !tokens[spelled + 1].boundaryAfter {
                    change = "\\Delta "
                    spelled += 2
                    if tokens[spelled].word.lowercased() == "the", spelled + 1 < tokens.count { spelled += 1 }
                }
                guard spelled < tokens.count, let quantity = quantity(tokens, at: spelled) else { return nil }
                parts.append(change + quantity.symbol)
                let meaning = "\\(\(quantity.symbol)\\): the \(quantity.name)"
                if !meanings.contains(meaning) { meanings.append(meaning) }
                at = quantity.end
                expectQuantity = false
                if tokens[at - 1].boundaryAfter { break }
            } else {
                let word = tokens[at].word.lowercased()
                if word == "times" { parts.append("\\,") }
                else if word == "plus" { parts.append("+") }
                else if word == "minus" { parts.append("-") }
                else if word == "divided", at + 1 < tokens.count, tokens[at + 1].word.lowercased() == "by" { parts.append("/"); at += 1 }
                else { return nil }
                at += 1
                expectQuantity = true
            }
        }
        // Two quantities at least: "momentum is the mass" is no relation.
        // Two quantities at least, or one's change ("the change in the total mechanical energy").
        // ("The work is equal to the change in kinetic energy" is the work-energy theorem, not what work is.)
        guard !expectQuantity, parts.count >= 3 || parts.count == 1 && parts[0].hasPrefix("\\Delta ") && subject.name != "work",
              !parts.contains(subject.symbol) else { return nil }
        let rhs = parts.joined(separator: " ").replacingOccurrences(of: " \\, ", with: "\\,")
        return FormulaStatement(name: qualifiedName(subject),
                                lhs: subject.symbol, rhs: rhs, meanings: meanings)
    }

    /// "the sum of the kinetic energy and the potential energy" → "K + U"; "the time derivative
    /// of the momentum", "the derivative of the momentum with respect to time" → "dp/dt": a side
    /// spoken as an operation on named quantities, to the sentence's end or a boundary.
    static func composedSide(_ tokens: [Token], from start: Int) -> (latex: String, symbols: [String], meanings: [String])? {
        var at = start
        func word(_ index: Int) -> String { index < tokens.count ? tokens[index].word.lowercased() : "" }
        func quantity(after index: Int) -> (name: String, symbol: String, end: Int)? {
            var spelled = index
            if word(spelled) == "the" { spelled += 1 }
            guard spelled < tokens.count else { return nil }
            return Self.quantity(tokens, at: spelled)
        }
        // The side ends the clause: nothing but a boundary or the sentence's end after it.
        func ends(_ end: Int) -> Bool { end >= tokens.count || tokens[end - 1].boundaryAfter }
        if word(at) == "the" { at += 1 }
        if word(at) == "sum", word(at + 1) == "of", let first = quantity(after: at + 2), !tokens[first.end - 1].boundaryAfter,
           ["and", "plus"].contains(word(first.end)), let second = quantity(after: first.end + 1), ends(second.end), first.symbol != second.symbol {
            return ("\(first.symbol) + \(second.symbol)", [first.symbol, second.symbol],
                    ["\\(\(first.symbol)\\): the \(first.name)", "\\(\(second.symbol)\\): the \(second.name)"])
        }
        var timed = false
        if word(at) == "time" { timed = true; at += 1 }
        guard word(at) == "derivative", word(at + 1) == "of", let derived = quantity(after: at + 2), derived.symbol != "t" else { return nil }
        var end = derived.end
        if !tokens[end - 1].boundaryAfter, tokens[end...].prefix(4).map({ $0.word.lowercased() }) == ["with", "respect", "to", "time"] {
            timed = true
            end += 4
        }
        guard timed, ends(end) else { return nil }
        return ("\\frac{d\(derived.symbol)}{dt}", [derived.symbol], ["\\(\(derived.symbol)\\): the \(derived.name)"])
    }

    // MARK: Definitions said as such

    /// Words a definition's subject may follow "define" with: "define what we actually call the
    /// angular velocity", "define the kinetic energy".
    private static let definingFillers: Set<String> = ["what", "we", "actually", "call", "the", "an", "a", "here", "now", "also"]

    /// "we define the kinetic energy as 1/2 m v squared", "I'm going to define what we actually
    /// call the angular velocity as omega": a named quantity said to be defined as a spoken side
    /// (the side may be one symbol: the quantity's, which the next sentence may relate).
    static func definedAs(in sentence: String) -> FormulaStatement? {
        let tokens = tokens(sentence)
        for index in tokens.indices where tokens[index].word.lowercased() == "define" && !tokens[index].boundaryAfter {
            var at = index + 1
            while at < tokens.count, at - index <= 5, definingFillers.contains(tokens[at].word.lowercased()), quantity(tokens, at: at) == nil { at += 1 }
            guard at < tokens.count, let quantity = quantity(tokens, at: at), quantity.end + 1 < tokens.count,
                  !tokens[quantity.end - 1].boundaryAfter, tokens[quantity.end].word.lowercased() == "as",
                  let (rhs, end) = spokenSide(tokens, from: quantity.end + 1), end >= tokens.count || tokens[end - 1].boundaryAfter,
                  !(rhs.split(separator: " ").contains { $0 == Substring(quantity.symbol) } && rhs != quantity.symbol) else { continue }
            let symbol = isComposed(rhs) ? quantity.symbol : rhs
            return FormulaStatement(name: quantity.name, lhs: symbol, rhs: rhs, meanings: [])
        }
        return nil
    }

    /// The words that carry a definition into the next sentence: "(And I'm going to) write that as".
    private static let carriers: [[String]] = [["write", "that", "as"], ["write", "it", "as"], ["write", "this", "as"], ["that", "is"], ["which", "is"]]

    /// What may stand before a carrier: the openers and the lecturer's "I'm going to".
    private static let carrierLead: Set<String> = ["and", "so", "now", "i'm", "i", "am", "going", "to", "we", "we'll", "i'll", "can", "will", "just", "also", "then"]

    /// "I'm going to define what we actually call the angular velocity as omega." then "And I'm
    /// going to write that as d theta dt.": the quantity and its symbol from the first sentence
    /// (`definedAs` with one symbol), the relation from the second, which says nothing else.
    static func carriedDefinition(_ sentence: String, _ next: String) -> FormulaStatement? {
        let lowered = sentence.lowercased()
        guard !hypothetical.matches(withoutNaming(lowered)), !conditional.matches(lowered), let defined = definedAs(in: sentence), !isComposed(defined.rhs),
              !next.hasSuffix("?") else { return nil }
        let tokens = tokens(next)
        var at = 0
        while at < tokens.count, at < 6, carrierLead.contains(tokens[at].word.lowercased()), !tokens[at].boundaryAfter { at += 1 }
        guard let carrier = carriers.first(where: { phrase in
            at + phrase.count < tokens.count && zip(tokens[at..<(at + phrase.count)], phrase).allSatisfy { $0.word.lowercased() == $1 }
                && !tokens[at..<(at + phrase.count)].contains { $0.boundaryAfter }
        }), let (rhs, end) = spokenSide(tokens, from: at + carrier.count), end >= tokens.count,
              isComposed(rhs) || rhs.hasPrefix("\\frac"),
              !rhs.split(separator: " ").contains(Substring(defined.lhs)) else { return nil }
        return FormulaStatement(name: defined.name, lhs: defined.lhs, rhs: rhs, meanings: [])
    }

    // MARK: Quantities by their symbols

    /// Quantities a first course defines by a relation, by name and symbol: a lecturer who has
    /// named one may then say only its symbol ("Remember, p equals mv"). Force, acceleration,
    /// velocity and the like are left out: "F equals …", "a equals …" are a problem's equations
    /// far more often than a definition.
    static let definedQuantities: [(name: String, symbol: String)] = [
        ("angular momentum", "L"), ("momentum", "p"), ("kinetic energy", "K"), ("torque", "\\tau"), ("impulse", "J"),
        ("power", "P"), ("work", "W"), ("angular velocity", "\\omega"),
    ]

    /// Whether `lowered` holds `name` as a whole word ("work", not "homework"); a plain scan, as
    /// a regular expression per passage and quantity doubled a transcript course's generation.
    static func names(_ lowered: String, _ name: String) -> Bool {
        var from = lowered.startIndex
        while let found = lowered.range(of: name, range: from..<lowered.endIndex) {
            let before = found.lowerBound == lowered.startIndex ? nil : lowered[lowered.index(before: found.lowerBound)]
            let after = found.upperBound == lowered.endIndex ? nil : lowered[found.upperBound]
            if before?.isLetter != true, after?.isLetter != true { return true }
            from = found.upperBound
        }
        return false
    }

    /// "Remember, p equals mv.", "So we know that L equals r cross p.": a relation whose left side
    /// is the symbol of a quantity the passage names (`named`, by symbol), read as that quantity's.
    static func symbolRelations(in sentence: String, named: Set<String>) -> [FormulaStatement] {
        guard !named.isEmpty, sentence.contains("equal") else { return [] }
        let tokens = tokens(sentence)
        var result: [FormulaStatement] = []
        for index in tokens.indices {
            // "So remember that omega z is equal to d theta dt.": the angular velocity's component.
            if tokens[index].word == "omega", named.contains("\\omega"), index + 3 < tokens.count, ["x", "y", "z"].contains(tokens[index + 1].word),
               !tokens[index].boundaryAfter, !tokens[index + 1].boundaryAfter, index == 0 || tokens[index - 1].boundaryAfter || ["that", "remember", "so", "and", "now", "know"].contains(tokens[index - 1].word.lowercased()),
               let sideStart = equalsSign(tokens, at: index + 2), let (rhs, end) = spokenSide(tokens, from: sideStart), end >= tokens.count || tokens[end - 1].boundaryAfter,
               isComposed(rhs), !rhs.contains("\\omega"), !rhs.split(separator: " ").contains(where: { $0.allSatisfy(\.isNumber) }) {
                result.append(FormulaStatement(name: "angular velocity (\(tokens[index + 1].word) component)", lhs: "\\omega_\(tokens[index + 1].word)", rhs: rhs, meanings: []))
                continue
            }
            // (A look at the word first: `symbol` runs its patterns on every word it is given.)
            guard ["L", "p", "K", "tau", "J", "P", "W"].contains(tokens[index].word),
                  let lhs = symbol(tokens[index].word), named.contains(lhs),
                  let quantity = definedQuantities.first(where: { $0.symbol == lhs }),
                  // (Only where the symbol opens the clause: "the T equals …", "L system A equals …" name something else.)
                  index == 0 || tokens[index - 1].boundaryAfter || ["that", "remember", "so", "and", "now", "know", "is"].contains(tokens[index - 1].word.lowercased()),
                  let relation = spokenRelation(tokens, at: index), relation.end >= tokens.count || tokens[relation.end - 1].boundaryAfter,
                  // "p equals m v": two symbols at least, none of them the left side again.
                  relation.rhs.contains(" "), !relation.rhs.split(separator: " ").contains(Substring(lhs)),
                  // "p equals 2 m v": a number is a problem's.
                  !relation.rhs.split(separator: " ").contains(where: { $0.allSatisfy(\.isNumber) }) else { continue }
            result.append(FormulaStatement(name: quantity.name, lhs: lhs, rhs: relation.rhs, meanings: []))
        }
        return result
    }

    /// "We're calling kinetic energy K, and it's given by 1/2mv squared.": a quantity named with
    /// its symbol, then what it is.
    static func calledQuantity(in sentence: String) -> FormulaStatement? {
        guard sentence.contains("call") || sentence.contains("denote") || sentence.contains("label") else { return nil }
        let tokens = tokens(sentence)
        for index in tokens.indices where ["call", "calling", "called", "denote", "label"].contains(tokens[index].word.lowercased()) {
            var at = index + 1
            if at < tokens.count, tokens[at].word.lowercased() == "the" { at += 1 }
            guard at < tokens.count, let quantity = quantity(tokens, at: at) ?? namedWithSymbol(tokens, at: at), quantity.end < tokens.count,
                  tokens[quantity.end].word.uppercased() == quantity.symbol.uppercased() || symbol(tokens[quantity.end].word) == quantity.symbol,
                  tokens[quantity.end].boundaryAfter else { continue }
            // "…, and it's given by", "…, and it is equal to", "…, which is defined as".
            let rest = tokens[(quantity.end + 1)...].prefix(5).map { $0.word.lowercased() }
            var skip = 0
            for phrase in [["and", "it's", "given", "by"], ["and", "it", "is", "given", "by"], ["and", "it's", "equal", "to"], ["and", "it", "is", "equal", "to"],
                           ["and", "it", "equals"], ["which", "is", "given", "by"], ["which", "is", "defined", "as"], ["and", "it's", "defined", "as"],
                           ["which", "is"]]
            where rest.starts(with: phrase) {
                skip = phrase.count
                break
            }
            guard skip > 0, let (rhs, end) = spokenSide(tokens, from: quantity.end + 1 + skip), end >= tokens.count || tokens[end - 1].boundaryAfter,
                  rhs != quantity.symbol, rhs.contains(" ") || rhs.contains("\\frac") else { continue }
            return FormulaStatement(name: quantity.name, lhs: quantity.symbol, rhs: rhs, meanings: [])
        }
        return nil
    }

    /// "… is called the linear density, lambda, which is …": a name of one to three words the
    /// quantities do not list, set off by commas, then a one-letter or Greek symbol set off too;
    /// the name with the symbol and the index of the symbol.
    static func namedWithSymbol(_ tokens: [Token], at index: Int) -> (name: String, symbol: String, end: Int)? {
        var end = index
        while end < tokens.count, end - index < 3, tokens[end].word.allSatisfy({ $0.isLowercase && $0.isLetter }),
              !ContentWords.stopwords.contains(tokens[end].word) {
            end += 1
            if tokens[end - 1].boundaryAfter { break }
        }
        guard end > index, end < tokens.count, tokens[end - 1].boundaryAfter, let written = greek[tokens[end].word.lowercased()] ?? symbol(tokens[end].word),
              !written.contains(" "), written != "\\Delta" else { return nil }
        return (tokens[index..<end].map(\.word).joined(separator: " "), written, end)
    }

    // MARK: Typeset mathematics

    /// "The power \(P\) is defined as the rate of doing work:" and on a line of its own
    /// "\[P = \frac{dW}{dt} = \vec{F}\cdot\vec{v}\]": a named quantity, its symbol, and the
    /// displayed relation whose left side is that symbol.
    static func displayedDefinitions(_ lines: [String]) -> [FormulaStatement] {
        var result: [FormulaStatement] = []
        let filled = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for (index, line) in filled.enumerated().dropLast() {
            guard line.hasSuffix(":"), line.contains("defined"),
                  let match = line.firstMatch(of: /^(?:[Tt]he )?([A-Za-z][a-z ]{2,40}?),? \\\(([^()]{1,20})\\\),? (?:is|are) defined (?:as|by)\b[^:]*:$/)
            else { continue }
            let next = filled[index + 1]
            guard let display = next.firstMatch(of: /^\\[\[(](.+)\\[\])]\.?$/) else { continue }
            let symbol = String(match.2).trimmingCharacters(in: .whitespaces)
            let math = String(display.1).replacingOccurrences(of: "\\displaystyle", with: "").trimmingCharacters(in: .whitespaces)
            let sides = math.components(separatedBy: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard sides.count >= 2, sides[0] == symbol, !sides.contains(where: \.isEmpty), !math.contains("\\text"),
                  !String(match.1).split(separator: " ").contains(where: { ContentWords.contextWords.contains(String($0)) }) else { continue }
            result.append(FormulaStatement(name: String(match.1).lowercased(), lhs: symbol, rhs: sides.dropFirst().joined(separator: " = "), meanings: []))
        }
        return result
    }

    /// "Angular Velocity: \(\vec{\omega}=\omega_z \hat{k}\)": a page's summary line naming a
    /// quantity and the relation for it (a chain "a = b = c" asks for what follows the first side).
    static func summaryLine(_ line: String) -> FormulaStatement? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let match = trimmed.firstMatch(of: /^([A-Z][A-Za-z' -]{2,60}): *\\\((.+?)\\\)\.?$/) else { return nil }
        let name = String(match.1).trimmingCharacters(in: .whitespaces)
        let math = String(match.2).replacingOccurrences(of: "\\displaystyle", with: "").trimmingCharacters(in: .whitespaces)
        let sides = math.components(separatedBy: "=").map { $0.trimmingCharacters(in: .whitespaces) }
        guard sides.count >= 2, !sides.contains(where: \.isEmpty), WordTokenizer.words(name).count <= 8, !math.contains("\\("),
              // "Problem 3: …", "Hint: …": not a quantity's name.
              !["problem", "hint", "answer", "solution", "example", "note", "part"].contains(where: { name.lowercased().hasPrefix($0) })
        else { return nil }
        let lowered = name.prefix(1) + name.dropFirst().lowercased()
        return FormulaStatement(name: String(lowered), lhs: sides[0], rhs: sides.dropFirst().joined(separator: " = "), meanings: [],
                                fromSummaryLine: true)
    }

    /// "the displacement vector is defined as \(\Delta \vec{r} = \vec{r}(t_2) - \vec{r}(t_1)\)":
    /// a named thing and the typeset relation that defines it.
    static func typesetDefinition(in sentence: String) -> FormulaStatement? {
        guard let match = sentence.firstMatch(of: /(?:^|, )(?:[Tt]he )?([a-z][a-z ]{2,40}?) (?:is|are) defined (?:as|by) \\\((.+?)\\\)\.?$/) else { return nil }
        let name = String(match.1)
        let math = String(match.2).replacingOccurrences(of: "\\displaystyle", with: "").trimmingCharacters(in: .whitespaces)
        let sides = math.components(separatedBy: "=")
        guard sides.count == 2, WordTokenizer.words(name).count <= 5,
              !name.split(separator: " ").contains(where: { ContentWords.contextWords.contains(String($0)) }) else { return nil }
        return FormulaStatement(name: name, lhs: sides[0].trimmingCharacters(in: .whitespaces),
                                rhs: sides[1].trimmingCharacters(in: .whitespaces), meanings: [])
    }
}
