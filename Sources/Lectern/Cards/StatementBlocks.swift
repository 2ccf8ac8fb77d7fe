import Foundation

/// Definition, theorem and rule environments of lecture notes and PDFs ("Definition 1.2
/// (metric space) …", "Satz 3 …", "Lemma 4.1. …", "Rule: …"), read by their shape: an
/// environment's name opening a line or following a sentence, a number or a colon, an
/// optional label in brackets, then the statement up to the next such opener or the passage's
/// end. The names are a short list in several languages; the shape is what makes a block, so
/// a reference in running text ("by Theorem 3 we get", "vgl. Definition 1.ii") is none.
enum StatementBlocks {
    enum Kind: String, Sendable {
        case definition, theorem, rule
    }

    struct Block: Equatable, Sendable {
        var kind: Kind
        /// The opener as the source writes it: "Definition 1.2", "Satz 3", "Rule".
        var name: String
        /// The term it defines or the label it carries, when the source gives one.
        var term: String?
        /// The statement, whitespace collapsed.
        var statement: String
        /// False where the PDF's math came out broken (`isReadable`, `hasOrphanIndex`).
        var readable: Bool
    }

    /// The names of remarks, which are theorems in the notes' own words.
    static let remarks: Set<String> = ["remark", "bemerkung", "remarque", "observation", "beobachtung", "observación", "osservazione"]

    /// Environment names by kind, folded: English, German, French, Spanish, Italian.
    static let names: [String: Kind] = {
        var names: [String: Kind] = [:]
        for name in ["definition", "def", "définition", "definición", "definizione", "begriff"] { names[name] = .definition }
        for name in ["theorem", "lemma", "corollary", "proposition", "satz", "hauptsatz", "korollar", "folgerung", "théorème",
                     "lemme", "corollaire", "teorema", "lema", "corolario", "corollario", "axiom", "axiome", "axioma", "postulate",
                     // A remark of lecture notes is most often a small proposition; it is a card only
                     // where the notes name it ("Bemerkung 24 (Mächtigkeit von Mannigfaltigkeiten)").
                     "remark", "bemerkung", "remarque", "observation", "beobachtung", "observación", "osservazione"] {
            names[name] = .theorem
        }
        for name in ["rule", "law", "principle", "regel", "gesetz", "prinzip", "règle", "loi", "principe", "regla", "ley"] {
            names[name] = .rule
        }
        return names
    }()

    /// Openers of any block, environments or not ("Beispiel 19", "Abbildung 1.11:", "Proof."):
    /// a capitalised word and a number, followed by a bracket, a colon, a line's end or a
    /// capitalised word, perhaps in quotation marks ("Definition 62 „Simplizialkomplexe“ …
    /// heißen flächengleich"). Where one starts, the statement before it ends.
    private static let anyOpener = try! NSRegularExpression(
        pattern: #"(?<![\p{L}\p{N}(.,])([\p{Lu}][\p{L}]{2,15})[ \t]+(\d+(?:\.\d+)*)\.?(?=[ \t]*(?:\(|:|\n|$|[ \t]+[„“"‚‘«»]?[\p{Lu}∀∃]))"#,
        options: [.anchorsMatchLines])
    /// An unnumbered environment: its name alone at a line's start, with a colon ("Definition: …", "Rule (Hooke): …").
    private static let labelled = try! NSRegularExpression(
        pattern: #"^[ \t]*([\p{Lu}][\p{L}]{2,15})(?:[ \t]*\(([^()\n]{2,60})\))?[ \t]*:"#, options: [.anchorsMatchLines])
    /// An environment's name and label in running text, after a sentence: "… . Satz (Binomischer Lehrsatz)".
    private static let unnumbered = try! NSRegularExpression(pattern: #"(?<=[.!?] )([\p{Lu}][\p{L}]{2,15}) \([^()\n]{2,60}\)"#)

    /// A proof, and a note or hint after a statement ("Hinweis: … ist erlaubt!"), end it.
    private static let proof = try! NSRegularExpression(pattern: #"(?<![\p{L}])(?:(?:Proof|Beweis|Preuve|Demostración|Dimostrazione)\b[.:]?|(?:Hinweis|Note|Hint|Achtung|Remarque|Nota):)"#)

    /// A sentence that only sets the scene ("Sei X ein Raum.", "Let X be a space.").
    static let premise = #"^(?:Sei|Seien|Es sei|Es seien|Let|Suppose|Assume|Soit|Soient|Sea|Sean|Betrachte|Betrachten|Consider|Considérons)\b"#

    /// Whether `text` claims something: it does not open with a premise, or goes on past it
    /// ("Dann …", "… heißt …", "then …").
    static func states(_ text: String) -> Bool {
        guard text.range(of: premise, options: .regularExpression) != nil else { return true }
        if text.range(of: #"\b(?:[Dd]ann|heißt|heißen|gilt|gelten|[Tt]hen|is called|are called|holds|hold|[Aa]lors|[Ee]ntonces)\b"#,
                      options: .regularExpression) != nil { return true }
        // "Sei X ein topologischer Raum. Eine Jordankurve in X ist ein …": a defining sentence past the premises.
        guard [" ist ", " sind ", " is ", " are ", " liegt ", " liegen "].contains(where: text.contains) else { return false }
        return sentences(text).dropFirst().contains { sentence in
            sentence.range(of: premise, options: .regularExpression) == nil && (openingTerm(in: sentence) ?? predicateTerm(in: sentence)) != nil
        } || predicateTerm(in: text) != nil
    }

    static func blocks(in text: String) -> [Block] {
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        // (start of the opener, start of the statement, name, number, is an environment)
        var openers: [(at: Int, body: Int, name: String, number: String?)] = []
        for match in anyOpener.matches(in: text, range: whole) {
            openers.append((match.range.location, match.range.location + match.range.length,
                            ns.substring(with: match.range(at: 1)), ns.substring(with: match.range(at: 2))))
        }
        for match in labelled.matches(in: text, range: whole) where Self.names[ns.substring(with: match.range(at: 1)).lowercased()] != nil {
            openers.append((match.range(at: 1).location, match.range.location + match.range.length - 1, ns.substring(with: match.range(at: 1)), nil))
        }
        for match in proof.matches(in: text, range: whole) {
            openers.append((match.range.location, match.range.location + match.range.length, "Proof", nil))
        }
        // "… f (v) = λv. Wenn … Satz (Binomischer Lehrsatz) Sei …": an unnumbered environment with its
        // label after a sentence ends the statement before it (and is no block: its extent is unknown).
        for match in unnumbered.matches(in: text, range: whole) where Self.names[ns.substring(with: match.range(at: 1)).lowercased()] != nil {
            openers.append((match.range.location, match.range.location + match.range.length, "Boundary", nil))
        }
        openers.sort { $0.at < $1.at }
        var blocks: [Block] = []
        for (index, opener) in openers.enumerated() {
            guard let kind = names[opener.name.lowercased()] else { continue }
            let end = index + 1 < openers.count ? openers[index + 1].at : ns.length
            guard end > opener.body else { continue }
            var body = ns.substring(with: NSRange(location: opener.body, length: end - opener.body))
            var term: String?
            // A sentence that ends a line ends the statement: what follows is the notes' own text.
            // (Past the premises: "Sei X … ." alone states nothing; its "Dann …" follows.)
            var from = body.startIndex
            // (A definition whose premises end a line and whose naming sentence follows on the next,
            // "U ⊆ X1 × X2 sei offen, wenn … gilt." then "… Sie heißt Produkttopologie.", reads on once.)
            var readOn = kind == .definition
            while let stop = body.range(of: #"[.!?][ \t]*\n"#, options: .regularExpression, range: from..<body.endIndex) {
                let head = String(body[..<body.index(after: stop.lowerBound)])
                // (Nor before a list's next item: "(ii) …" continues the conditions. Part a)'s mark
                // before the premises, "a) Sei ∆n = … .", is no claim of its own.)
                let rest = body[stop.upperBound...]
                let claim = head.trimmingCharacters(in: .whitespacesAndNewlines)
                    .replacingOccurrences(of: #"^\(?[a-z0-9]{1,4}\)\s*"#, with: "", options: .regularExpression)
                let names = kind != .definition || definedTerm(in: TextCleanup.collapseWhitespace(claim)) != nil
                if !states(claim) || (!names && readOn)
                    || rest.range(of: #"^[ \t]*\(?[a-z0-9]{1,4}\)"#, options: .regularExpression) != nil {
                    if states(claim), !names { readOn = false }
                    from = stop.upperBound
                    continue
                }
                body = head
                break
            }
            // "(metric space)" or ": " after the number.
            body = body.trimmingCharacters(in: .whitespacesAndNewlines)
            if body.hasPrefix("("), let close = body.firstIndex(of: ")") {
                let label = String(body[body.index(after: body.startIndex)..<close]).trimmingCharacters(in: .whitespaces)
                // ("(i)", "(d)": an item's mark, not a label.)
                if label.count >= 2, label.count <= 60, label.filter(\.isLetter).count >= 2,
                   label.range(of: #"^[ivxlc]+$"#, options: .regularExpression) == nil { term = label }
                body = String(body[body.index(after: close)...])
            }
            // A statement that stops without a sentence's end lost its display formula ("… gilt"),
            // as does one whose display left an ellipsis ("Die hyperbolischen Geraden erfüllen. . .");
            // one ending in a relation of its own ("… : x ∈ M", "f (v) = λv") is whole without a full stop.
            let ending = body.trimmingCharacters(in: .whitespacesAndNewlines)
            let complete = ((ending.last.map { ".!?".contains($0) } ?? false) || ending.suffix(6).contains(where: { "=∈⊆⊂<>≤≥≠∉".contains($0) })
                            || displaysRelation(ending))
                && ending.range(of: #"(?:\.\s?){3}$|…$"#, options: .regularExpression) == nil
            body = body.trimmingCharacters(in: CharacterSet(charactersIn: ":.").union(.whitespacesAndNewlines))
            if opener.number == nil, let match = labelled.firstMatch(in: text, range: NSRange(location: opener.at, length: ns.length - opener.at)),
               match.range(at: 2).location != NSNotFound {
                term = ns.substring(with: match.range(at: 2))
            }
            let statement = TextCleanup.collapseWhitespace(body).trimmingCharacters(in: .whitespacesAndNewlines)
            // An item's mark opening a line ("a)", "2)") opens no bracket.
            let unmarked = TextCleanup.collapseWhitespace(body.replacingOccurrences(of: #"(?m)^[ \t]*[a-z0-9]{1,4}\)"#, with: "", options: .regularExpression))
            guard !statement.isEmpty else { continue }
            var focused = statement
            var whole = complete
            // The text the card's statement is read from: a definition in parts is judged part by part.
            var judged = body
            var laterParts: [(mark: String, raw: String)] = []
            // "… heißt simplizial, wenn für jedes ∆ ∈ K gilt:" then "a) …", "b) …": the items are the
            // conditions of one definition, read whole, not parts naming terms of their own.
            let conditions = kind == .definition && term == nil && Self.listsConditions(Self.parts(of: body))
            if kind == .definition, term == nil {
                // Part a) of a definition in parts is the first term's; each later part that names
                // a term of its own is a block of its own (below).
                let parts = Self.parts(of: body)
                if !conditions, let first = parts.first {
                    judged = first.raw
                    whole = first.raw.last.map { ".!?".contains($0) } ?? false
                    focused = TextCleanup.collapseWhitespace(first.raw).trimmingCharacters(in: CharacterSet(charactersIn: ".").union(.whitespaces))
                    laterParts = Array(parts.dropFirst())
                }
                focused = focused.replacingOccurrences(of: #"^a\)\s*"#, with: "", options: .regularExpression)
                term = definedTerm(in: focused)
                // (The naming sentence comes before the conditions, which end the statement.)
                if !conditions { focused = endingWithTerm(focused, term: term) }
            }
            let judgedUnmarked = judged == body ? unmarked
                : TextCleanup.collapseWhitespace(judged.replacingOccurrences(of: #"(?m)^[ \t]*[a-z0-9]{1,4}\)"#, with: "", options: .regularExpression))
            // A statement of premises alone lost its claim; a term whose brackets do not close is cut.
            let claims = states(focused)
            if let named = term, !isReadable(named) || !isTerm(named) { term = nil }
            let name = opener.number.map { "\(opener.name) \($0)" } ?? opener.name
            // (Part a)'s mark after the premises, "… Raum. a) B ⊆ T heißt …", opens no bracket.)
            let focusedUnmarked = conditions ? unmarked
                : focused.replacingOccurrences(of: #"(?<=[.:!?] )[a-z]\) "#, with: "", options: .regularExpression)
            // A remark listing several properties ("a) … b) … c) …") is several facts, not one card.
            let listed = remarks.contains(opener.name.lowercased()) && !Self.parts(of: body).isEmpty
            blocks.append(Block(kind: kind, name: name, term: term,
                                statement: focused, readable: whole && claims && !listed && isReadable(judgedUnmarked) && isReadable(focusedUnmarked)
                                    && !hasOrphanIndex(judged) && !lostDisplay(judged)))
            // "b) S ⊆ T heißt Subbasis der Topologie T, wenn …": a later part defining another term.
            var named = Set([term].compactMap { $0?.lowercased() })
            for (index, part) in laterParts.enumerated() {
                let text = TextCleanup.collapseWhitespace(part.raw).trimmingCharacters(in: .whitespaces)
                guard let partTerm = definedTerm(in: text), isReadable(partTerm), isTerm(partTerm), named.insert(partTerm.lowercased()).inserted else { continue }
                let statement = endingWithTerm(text.trimmingCharacters(in: CharacterSet(charactersIn: ".").union(.whitespaces)), term: partTerm)
                // (The last part's sentence end went with the body's.)
                let ends = index == laterParts.count - 1 ? complete : part.raw.last.map { ".!?".contains($0) } ?? false
                blocks.append(Block(kind: kind, name: "\(name) \(part.mark))", term: partTerm, statement: statement,
                                    readable: ends && states(statement) && isReadable(statement) && !hasOrphanIndex(part.raw) && !lostDisplay(part.raw)))
            }
        }
        return blocks
    }

    /// Whether `text` ends in a relation displayed on its own line after the line announcing it
    /// ("… mit λ + µ = 1 gilt:" then "f (λa + µb) = λf (a) + µf (b)"): whole without a full stop.
    static func displaysRelation(_ text: String) -> Bool {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.count >= 2, let last = lines.last, lines[lines.count - 2].hasSuffix(":"),
              last.components(separatedBy: "=").count == 2, last.count <= 80, !last.hasSuffix("=") else { return false }
        return true
    }

    /// The text a block may be read from at `index` of `passages` (a topic's, in order): the
    /// passage, and the next one of its document where the chunker cut the block after its
    /// premises ("Definition 17 Sei X ein topologischer Raum." | "a) Ein Weg in X ist …").
    static func readingText(_ passages: [Passage], at index: Int) -> String {
        let own = repairingGlyphs(passages[index].text)
        guard index + 1 < passages.count, passages[index + 1].documentId == passages[index].documentId,
              passages[index + 1].ordinal == passages[index].ordinal + 1,
              let last = blocks(in: own).last, !last.readable || (last.kind == .definition && last.term == nil) else { return own }
        // Up to the next passage's first opener: its own blocks are read from it.
        let next = repairingGlyphs(passages[index + 1].text)
        let ns = next as NSString
        let whole = NSRange(location: 0, length: ns.length)
        let cut = [anyOpener.firstMatch(in: next, range: whole), proof.firstMatch(in: next, range: whole)].compactMap { $0?.range.location }.min() ?? ns.length
        return own + "\n" + ns.substring(to: cut)
    }

    /// Whether `statement` stands in `passage` as written, or runs on into the next passage of
    /// `topic` (`readingText`): an environment card's statement is the source's block itself.
    static func holds(_ statement: String, passage: Passage, topic: Topic) -> Bool {
        if TextCleanup.collapseWhitespace(repairingGlyphs(passage.text)).contains(statement) { return true }
        // (The passages the generator reads blocks from: a topic's prose, in order.)
        let prose = topic.passages.filter { [.text, .list, .transcript, .caption].contains($0.kind) }
        guard let index = prose.firstIndex(where: { $0.id == passage.id }) else { return false }
        return TextCleanup.collapseWhitespace(readingText(prose, at: index)).contains(statement)
    }

    /// A definition's parts "a) …", "b) …" as the notes mark them at a line's start: the first
    /// with what stands before it (the premises), each with its mark and raw text (trimmed).
    /// None when the definition is not in parts.
    static func parts(of body: String) -> [(mark: String, raw: String)] {
        guard let second = body.range(of: #"(?m)^[ \t]*b\)"#, options: .regularExpression) else { return [] }
        var parts = [(mark: "a", raw: String(body[..<second.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines))]
        let rest = body[second.lowerBound...]
        let marks = rest.ranges(of: /^[ \t]*[b-h]\)/.anchorsMatchLineEndings())
        for (index, range) in marks.enumerated() {
            let end = index + 1 < marks.count ? marks[index + 1].lowerBound : rest.endIndex
            let raw = rest[range.upperBound..<end].trimmingCharacters(in: .whitespacesAndNewlines)
            let mark = rest[range].trimmingCharacters(in: CharacterSet(charactersIn: " \t)"))
            parts.append((mark, raw))
        }
        return parts
    }

    /// Whether a definition's lettered items are the conditions its statement announces: the text
    /// before "a)" names the term and ends in a colon ("… heißt simplizial, wenn für jedes ∆ ∈ K
    /// gilt:", "… is called regular if:"), and no item names a term of its own.
    static func listsConditions(_ parts: [(mark: String, raw: String)]) -> Bool {
        guard parts.count >= 2, let first = parts.first?.raw,
              let item = first.range(of: #"(?m)^[ \t]*a\)"#, options: .regularExpression) else { return false }
        let lead = String(first[..<item.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard lead.hasSuffix(":"), definedTerm(in: lead) != nil else { return false }
        let items = [String(first[item.upperBound...])] + parts.dropFirst().map(\.raw)
        return items.allSatisfy { definedTerm(in: TextCleanup.collapseWhitespace($0)) == nil }
    }

    /// Whether `term` names a thing: not a clause running on ("Inklusionsabbildung und man
    /// schreibt") nor a symbol's lost letter ("k -Struktur auf X", whose "C" the PDF set apart).
    static func isTerm(_ term: String) -> Bool {
        // ("ϕij", "κ(t)": a symbol, not a term; a term has a word of three Latin letters or more: "Weg".)
        term.range(of: #"\b(?:und man|and we|und es)\b|^\p{L} -"#, options: .regularExpression) == nil
            && term.split(whereSeparator: { !$0.isLetter }).contains { $0.count >= 3 && $0.allSatisfy { $0.isASCII || "äöüÄÖÜßéèàçñ".contains($0) } }
    }

    /// Whether a part's mathematics lost its display: "M :=" ending a line (what it defines went
    /// with the display), "|K| := ∆∈K ∆" (a big operator's index left without its operator).
    static func lostDisplay(_ raw: String) -> Bool {
        raw.range(of: #":=[ \t]*\n|:= \S+∈\S+ "#, options: .regularExpression) != nil
            // "… von Karten auf X, S sodass i∈I Ui = X": a big operator's index standing alone in the line.
            || raw.range(of: #"(?:^|\s)\p{L}∈\p{L}[\p{L}\p{N}]*\s"#, options: .regularExpression) != nil
            // "TX := U ⊆ X π −1 (U ) ∈ TX": a set whose braces and bar went with the font.
            || raw.range(of: #":=\s+[^{}|\n]{1,30}\s∈\s"#, options: .regularExpression) != nil
            // "σ(z) := az + b cz + d": a fraction flattened into one line reads as another sum.
            || raw.range(of: #"[+−-] \w{1,2} \w{1,3} [+−-] "#, options: .regularExpression) != nil
    }

    /// The statement up to the sentence that names `term`: what follows is a remark.
    static func endingWithTerm(_ statement: String, term: String?) -> String {
        guard let term else { return statement }
        var kept: [String] = []
        for sentence in SentenceSplitter.split(statement).map(\.text) {
            kept.append(sentence.trimmingCharacters(in: .whitespaces))
            // ("affin" names the term; "affinen Räume" of the premises does not.)
            if sentence.range(of: #"(?<![\p{L}\p{N}])"# + NSRegularExpression.escapedPattern(for: term) + #"(?![\p{L}\p{N}])"#, options: .regularExpression) != nil { break }
        }
        return kept.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".").union(.whitespaces))
    }

    /// The term a definition's statement names: "Ein topologischer Raum ist ein …", "A metric
    /// space is a …", "… heißt kompakt, wenn …", "… is called compact if …".
    static func definedTerm(in statement: String) -> String? {
        if let term = openingTerm(in: statement) ?? calledTerm(in: statement) { return term }
        // "Sei X ein topologischer Raum. Eine Jordankurve in X ist ein …": the sentence after the premises.
        for sentence in sentences(statement).dropFirst()
        where sentence.range(of: premise, options: .regularExpression) == nil {
            return openingTerm(in: sentence) ?? predicateTerm(in: sentence)
        }
        return predicateTerm(in: statement)
    }

    private static let predicatePattern = try! NSRegularExpression(
        pattern: #"(?:^|(?<=[.:] ))(?:\(?[a-z0-9]{1,3}\)\s*)?(?!(?:Sei|Seien|Let|Es sei)\b)[^.;:]{1,40}?\s(?:ist|sind|liegt|liegen|is|are|lie)\s+(\p{Ll}[\p{L}-]{3,30}),\s+(?:wenn|falls|if|when)\b"#)

    /// "P, Q, R liegen kollinear, wenn …", "Zwei Winkel sind gleich, wenn …", "A space is compact
    /// if …" → "kollinear", "gleich", "compact": the property a definition's sentence gives its
    /// subject under a condition is its term.
    private static func predicateTerm(in sentence: String) -> String? {
        guard let match = predicatePattern.firstMatch(in: sentence, range: NSRange(sentence.startIndex..., in: sentence)),
              let range = Range(match.range(at: 1), in: sentence) else { return nil }
        return String(sentence[range])
    }

    /// The sentences of `text`, each without the mark of the part it opens ("Sei X ein Raum. a)
    /// Ein Weg in X ist …" → "Sei X ein Raum.", "Ein Weg in X ist …").
    private static func sentences(_ text: String) -> [String] {
        let unmarked = text.replacingOccurrences(of: #"(?<=[.:!?])\s+\(?[a-z0-9]{1,3}\)\s+"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #"^\s*\(?[a-z0-9]{1,3}\)\s+"#, with: "", options: .regularExpression)
        return SentenceSplitter.split(unmarked).map { $0.text.trimmingCharacters(in: .whitespaces) }
    }

    /// "Ein topologischer Raum ist ein …" → "topologischer Raum": the subject of the statement's first words.
    private static func openingTerm(in statement: String) -> String? {
        let opening = #"^(?:(?:A|An|The|Ein|Eine|Einen|Der|Die|Das|Un|Une|Le|La|Les|Uno|Una|El)\s+)?((?:[\p{L}-]+\s+){0,4}[\p{L}-]+)\s+(?:is|are|ist|sind|est|sont|es|son)\s+(?:a|an|the|ein|eine|einen|der|die|das|un|une|le|la|les|una|uno|el)\b"#
        if let range = statement.range(of: opening, options: .regularExpression) {
            let match = String(statement[range])
            let words = match.split(separator: " ").map(String.init)
            // Drop the article in front and the copula and article behind.
            var termWords = Array(words.dropLast(2))
            if let first = termWords.first, ["a", "an", "the", "ein", "eine", "einen", "der", "die", "das", "un", "une", "le", "la", "les", "uno", "una", "el"].contains(first.lowercased()) {
                termWords.removeFirst()
            }
            if !termWords.isEmpty, !["sei", "let", "es", "if", "wenn", "seien", "soit"].contains(termWords[0].lowercased()) {
                return termWords.joined(separator: " ")
            }
        }
        return nil
    }

    /// "… heißt kompakt, wenn …" → "kompakt": the term a naming verb gives.
    private static func calledTerm(in statement: String) -> String? {
        // "… heißt κ(t) := ‖γ″(t)‖ die Krümmung von γ in t": a symbol, its formula, then the term.
        if let match = symbolNamedPattern.firstMatch(in: statement, range: NSRange(statement.startIndex..., in: statement)),
           let range = Range(match.range(at: 1), in: statement) {
            return String(statement[range]).trimmingCharacters(in: .whitespaces)
        }
        guard let match = calledPattern.firstMatch(in: statement, range: NSRange(statement.startIndex..., in: statement)),
              let range = Range(match.range(at: 1), in: statement) else { return nil }
        var words = statement[range].split(separator: " ").map(String.init)
        // "ϕ eine Isometrie", "f Kurve", "genau dann eine Geometrie": the named thing and its
        // article go, the term stays.
        // (An article as written, lower-case: "von A und B" names a symbol "A", no article.)
        if let article = words.prefix(3).firstIndex(where: { ["ein", "eine", "einen", "a", "an", "the"].contains($0) }), article + 1 < words.count {
            words.removeFirst(article + 1)
        } else if words.count > 1, words[0].count <= 2 || (words[0].contains("(") && !words[0].hasPrefix("(")) {
            // ("κ(t) Krümmung von γ in t": the symbol named goes, the term stays.)
            words.removeFirst()
        }
        let term = words.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return term.filter(\.isLetter).count >= 2 ? term : nil
    }

    private static let symbolNamedPattern = try! NSRegularExpression(pattern: #"\b(?:heißt|heißen|is called)\s+\S{1,12}\s+:=\s+\S{1,30}\s+(?:der|die|das|the)\s+([^,.;:]{2,60}?)(?=\s*(?:[,.;:]|\s(?:wenn|falls|if|when)\b|$))"#)

    /// (A second naming joined by "und"/"and" ends the first: "TY heißt Teilraumtopologie und
    /// (Y, TY) heißt ein Teilraum", "Dann heißt ∆n Standard-Simplex und n die Dimension".)
    private static let calledPattern = try! NSRegularExpression(pattern: #"\b(?:heißt|heißen|nennt man|is called|are called|is said to be|are said to be|we call|is termed|se llama|s'appelle|est appelé|est appelée)\s+(?:(?:a|an|the|ein|eine|einen|der|die|das)\s+)?((?:[^,.;:]|(?<=\sbzgl|\sbzw)\.){2,60}?)(?=\s*(?:[,;:]|(?<!\sbzgl|\sbzw)\.|\s(?:wenn|falls|if|when|provided|sofern|genau dann)\b|(?<!\s\p{L}{1,3})\s(?:und|and|oder|or)\s+(?:\(|\p{L}{1,3}\b)|$))"#)

    /// `text` with the glyphs a TeX math font loses in a PDF's text layer written as the symbols
    /// they print: its negation slash comes out as "6" ("x 6= y" is x ≠ y), the bar of ↦ as "7"
    /// ("x 7→ [x]"), and a set's raised "+" and lowered "0" as "R+ 0" (ℝ₀⁺). Each pattern is
    /// the font's, not a sentence's: a "6" or "7" glued to the symbol after it is never a number.
    /// The dot of a disjoint union comes out after its union ("X ∪˙ Y" is X ∪̇ Y), a derivative's
    /// prime as a "0" set apart before its argument ("γ 0 (t)" is γ′(t), "γ 00 (t)" γ″(t)), and a
    /// norm's double bars as "k" ("kvk" is ‖v‖, "kγ 00 (t)k" ‖γ″(t)‖: one symbol, perhaps primed,
    /// perhaps with its argument, between two k's no word touches).
    static func repairingGlyphs(_ text: String) -> String {
        var text = text
        if text.contains("6=") || text.contains("7→") || text.contains("+ 0") {
            text = text.replacingOccurrences(of: #"(?<=[\s(])6=(?=\s)"#, with: "≠", options: .regularExpression)
                .replacingOccurrences(of: #"(?<=\s)7→(?=\s)"#, with: "↦", options: .regularExpression)
                .replacingOccurrences(of: #"(?<=\p{L})\+ 0\b"#, with: "₀⁺", options: .regularExpression)
        }
        if text.contains("−1") {
            // "ϕ−1 i": the index of ϕi⁻¹ set on the line after the exponent (not "ϕ−1 i i", twice).
            text = text.replacingOccurrences(of: #"(?<![\p{L}\p{N}])(\p{L})−1\s+([\p{Ll}\p{N}])(?![\p{L}\p{N}])(?!\s+\2(?![\p{L}\p{N}]))"#, with: "$1$2⁻¹", options: .regularExpression)
        }
        if text.contains("∪˙") { text = text.replacingOccurrences(of: "∪˙", with: "∪\u{0307}") }
        if text.contains(" 0") {
            // (Norms first: the bar before "kγ 00 (t)k" touches the symbol the prime follows.)
            text = text.replacingOccurrences(of: #"(?<![\p{L}\p{N}])k(\p{L}(?: 0{1,2} ?)?\([^()\s]{1,8}\))k(?![\p{L}\p{N}])"#, with: "‖$1‖", options: .regularExpression)
                .replacingOccurrences(of: #"(?<![\p{L}\p{N}])(\p{L}) 00 ?(?=\()"#, with: "$1″", options: .regularExpression)
                .replacingOccurrences(of: #"(?<![\p{L}\p{N}])(\p{L}) 0 ?(?=\()"#, with: "$1′", options: .regularExpression)
        }
        if text.contains("k") {
            text = text.replacingOccurrences(of: #"(?<![\p{L}\p{N}])k(\p{L}[′″]?(?:\([^()\s]{1,8}\))?)k(?![\p{L}\p{N}])"#, with: "‖$1‖", options: .regularExpression)
        }
        return text
    }

    /// Whether `text` reads as the source wrote it: no glyphs a PDF's math font broke ("x 6= y",
    /// private-use characters, a big operator's orphaned index line "i∈I"), brackets that close.
    static func isReadable(_ text: String) -> Bool {
        // A control character where the font's bracket or bar was ("=  (x, y) ∈ R2 y > 0"), "ϕ−1 i i",
        // a lost prime ("P 0", "γ 0 (0)"), "z 7→", "∪˙", "R+ 0": the glyphs summaries check too.
        if MathText.hasLostGlyph(text) { return false }
        // "dn−1 x": an index set apart after an exponent where no repair reads it.
        if text.range(of: #"\p{L}−1 [\p{Ll}\p{N}](?![\p{L}\p{N}])"#, options: .regularExpression) != nil { return false }
        // "6=" is ≠ in a font without its glyph; "∅ = G" a lost ≠; "•": a slide's bullets, not a statement.
        if text.range(of: #"(?:^|\s)6=|\w 6= "#, options: .regularExpression) != nil || text.contains("•") { return false }
        if text.range(of: #"∅ = \p{L}"#, options: .regularExpression) != nil { return false }
        // "kγ′(t)k2": norm bars lost where no repair reads them; "hn(t), γ′(t)i": angle brackets lost as "h … i".
        if text.range(of: #"(?<![\p{L}\p{N}])k\p{L}[′″]?\(|[′″)]k(?=[\s\p{N}]|$)|(?<![\p{L}\p{N}])h\p{L}[^\s]*,[^\n]{0,40}?\)i(?![\p{L}\p{N}])"#, options: .regularExpression) != nil { return false }
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] where text.components(separatedBy: open).count != text.components(separatedBy: close).count {
            return false
        }
        return true
    }

    /// Whether the raw block text (before whitespace is collapsed) holds a line that is only a
    /// big operator's index ("i∈I", "i∈J⊆I"): the operator itself is lost.
    static func hasOrphanIndex(_ raw: String) -> Bool {
        raw.split(separator: "\n").contains { line in
            let bare = line.trimmingCharacters(in: .whitespaces)
            return !bare.isEmpty && bare.count <= 10 && !bare.contains(" ") && bare.contains(where: { "∈⊆⊂=<>≤≥".contains($0) })
        }
    }
}
