import Foundation

/// A summary of lecture notes written as definitions, theorems and examples ("Definition 8 …
/// heißt Metrik", "Satz 1.3 (Satz von Reidemeister) …"), from the blocks' own titles rather
/// than their sentences: sentences picked from such notes are proof steps and formula pieces
/// ("Sei X eine Menge.", "falls x 6= y"), while the notes say plainly what they define and
/// state. In the notes' language (German or English): the statements of its definitions and
/// theorems where they read, the other terms and named theorems by name.
enum StructuralSummary {
    enum Kind { case definition, theorem, remark, example }

    /// One environment of the notes: its kind, its name as printed ("Satz 1.3"), its label
    /// ("Satz von Reidemeister") and its text up to the next environment.
    struct Environment {
        var kind: Kind
        var name: String
        var label: String?
        var body: String
        /// Where the environment starts in the notes' text.
        var start: String.Index
    }

    static let names: [String: Kind] = [
        "definition": .definition, "satz": .theorem, "theorem": .theorem, "lemma": .theorem, "korollar": .theorem,
        "folgerung": .theorem, "proposition": .theorem, "corollary": .theorem, "hauptsatz": .theorem,
        "beispiel": .example, "example": .example, "bemerkung": .remark, "remark": .remark,
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
    /// and theorems, or nothing to name). It states what the section defines and proves in the
    /// notes' own sentences ("Eine Gruppenoperation von G auf X ist eine Abbildung …"; #31: "Der
    /// Abschnitt definiert „Gruppenoperation“." alone says nothing of what one is): the
    /// definitions of the title's subject first, then named theorems, other definitions, other
    /// theorems and remarks, up to three statements in reading order; then the rest by name
    /// while it stays short. A statement whose mathematics the PDF broke is named instead.
    /// Examples are named by their titles only where nothing else is there ("Beispiele:
    /// Kompakte Räume." reads as a heading).
    static func summary(of passages: [Passage], title: String = "") -> String? {
        let text = passages.filter { $0.kind == .text || $0.kind == .list }.map(\.text).joined(separator: "\n")
        let environments = self.environments(in: text)
        guard environments.filter({ $0.kind != .example }).count >= 2 else { return nil }
        let german = isGerman(text)
        let terms = environments.map { $0.kind == .definition ? definedTerms(in: $0.body) : [] }
        // What each environment states as a sentence, and in which order they are wanted.
        // A remark whose formula broke may say its claim in its label ("Bemerkung 9 (Verkettungen
        // stetiger Abbildungen sind stetig)"): that is its statement.
        let statements = environments.indices.map { index in
            stated(environments[index], terms: terms[index], following: text[environments[index].start...]) ?? claimedByLabel(environments[index])
        }
        let subject = titleWords(title)
        // A theorem or remark about the title's subject ("Überlagerungen sind surjektiv." in
        // "Überlagerungen") comes before other definitions.
        func about(_ index: Int) -> Bool {
            guard let statement = statements[index] else { return false }
            return WordTokenizer.words(statement + " " + (environments[index].label ?? "")).contains { names(subject, $0) }
        }
        func rank(_ index: Int) -> Int {
            let environment = environments[index]
            switch environment.kind {
            case .definition: return terms[index].contains { names(subject, $0) } ? 0 : 3
            case .theorem: return environment.label != nil ? 1 : about(index) ? 2 : 4
            case .remark: return about(index) ? 2 : 5
            case .example: return 6
            }
        }
        var chosen: [Int] = []
        var words = 0
        for index in environments.indices.filter({ statements[$0] != nil && environments[$0].kind != .example }).sorted(by: { (rank($0), $0) < (rank($1), $1) }) {
            let count = statements[index]!.split(separator: " ").count
            guard chosen.count < 3, words + count <= 80 else { continue }
            chosen.append(index)
            words += count
        }
        // A named theorem says its name ("Satz 1.1 (Heine-Borel): Eine Teilmenge …"), a remark its
        // label, which may say what its symbols are ("Eigenschaften der Tangentialebene: Ts S ist …").
        var sentences = chosen.sorted().map { index in
            let environment = environments[index]
            guard let label = environment.label else { return statements[index]! }
            switch environment.kind {
            case .theorem where statements[index] != claimedByLabel(environment):
                return "\(environment.name) (\(label)): \(statements[index]!)"
            case .remark where statements[index] != claimedByLabel(environment):
                return "\(MathText.repairingGlyphs(label)): \(statements[index]!)"
            default: return statements[index]!
            }
        }
        // The rest by name, while the summary stays short.
        var named: [String] = []
        for (index, environment) in environments.enumerated() where environment.kind == .definition && !chosen.contains(index) {
            for term in terms[index] where !named.contains(term) && !sentences.contains(where: { $0.contains(term) }) { named.append(term) }
        }
        let theorems = environments.indices.filter { environments[$0].kind == .theorem && environments[$0].label != nil && !chosen.contains($0) }
            .map { "\(environments[$0].name) (\(environments[$0].label!))" }
        if !named.isEmpty {
            let quoted = named.prefix(chosen.isEmpty ? 6 : 4).map { german ? "„\($0)“" : "“\($0)”" }
            let again = chosen.isEmpty ? "" : (german ? " außerdem" : " also")
            let sentence = german ? "Der Abschnitt definiert\(again) \(list(quoted, and: "und"))." : "The section\(again) defines \(list(quoted, and: "and"))."
            if chosen.isEmpty || words + sentence.split(separator: " ").count <= 100 {
                sentences.append(sentence)
                words += sentence.split(separator: " ").count
            }
        }
        if !theorems.isEmpty {
            let listed = list(Array(theorems.prefix(chosen.isEmpty ? 4 : 2)), and: german ? "und" : "and")
            let sentence = german ? "Der Abschnitt enthält \(listed)." : "The section states \(listed)."
            if chosen.isEmpty || words + sentence.split(separator: " ").count <= 100 { sentences.append(sentence) }
        }
        if sentences.isEmpty {
            let examples = environments.filter { $0.kind == .example }.compactMap(\.label).map(MathText.repairingGlyphs)
            guard !examples.isEmpty else { return nil }
            sentences.append((german ? "Beispiele: " : "Examples: ") + examples.prefix(4).joined(separator: "; ") + ".")
        }
        return sentences.joined(separator: " ")
    }

    /// A remark's or theorem's label that is a claim of three words or more ("Projektionen sind
    /// stetig"), as a sentence; nil for a label that names ("Satz von Pasch", "Eigenschaften von
    /// Normalenfeldern") or is a note ("Mengen, die offen & abgeschlossen sind, ex.").
    static func claimedByLabel(_ environment: Environment) -> String? {
        guard environment.kind == .remark || environment.kind == .theorem, let label = environment.label,
              label.split(separator: " ").count >= 3, let first = label.first, first.isUppercase,
              label.range(of: #"\b(?:ist|sind|hat|haben|is|are|has|have)\b"#, options: .regularExpression) != nil,
              label.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" }) else { return nil }
        return label + "."
    }

    /// The title's words that can name a subject (four letters or more), folded.
    static func titleWords(_ title: String) -> [String] {
        WordTokenizer.words(title).map { WordTokenizer.fold($0) }.filter { $0.count >= 4 }
    }

    /// Whether `term` names the title's subject: a word of each shares its stem with the other
    /// ("Gruppenoperation" in "Gruppenoperationen", "kompakt" in "Kompaktheit").
    static func names(_ subject: [String], _ term: String) -> Bool {
        let words = WordTokenizer.words(term).map { WordTokenizer.fold($0) }.filter { $0.count >= 4 }
        return words.contains { word in
            subject.contains { title in
                let stem = min(word.count, title.count, max(5, min(word.count, title.count) - 2))
                return word.prefix(stem) == title.prefix(stem)
            }
        }
    }

    /// What an environment states, as sentences a learner reads alone: a definition's sentence
    /// that defines (with the conditions it lists after a colon, where they are short), a
    /// theorem's or remark's first claim, each after the setting it needs ("Sei (G, ·) eine
    /// Gruppe und X eine Menge."), broken glyphs repaired. Nil where that is no readable prose:
    /// more than half symbols (a third outside a definition), glyphs the PDF's math font lost
    /// (`MathText.isIntact`, `detachedScript`), brackets that do not close, a pointer to another
    /// block, or longer than 60 words.
    static func stated(_ environment: Environment, terms: [String], following: Substring = "") -> String? {
        guard environment.kind != .example else { return nil }
        // Parts after a whole sentence ("… eine Gruppenoperation. a) G operiert durch …, wenn …")
        // are sentences of their own.
        // (The PDF's space before a mark or a closing bracket, "U1 , U2", "f (U )", "(Ui , ϕi )i∈I",
        // "C ∞ .", "{ e }", and between a function and its argument, "π1 (X, x)", goes, and so does
        // an article printed twice, "eine eine Funktion".)
        let text = MathText.repairingGlyphs(TextCleanup.collapseWhitespace(environment.body))
            .replacingOccurrences(of: #"(?:^|(?<=[.!?])\s+)\(?(?:[a-e]|i{1,3}|iv)\)\s+(?=\p{Lu})"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #"\s+(?=[)\]}]|[,.;](?:\s|$))|(?<=\{)\s+|(?<=(?:^|\s)[\p{L}&&[^aA]]|(?:^|\s)\p{L}\p{N})\s+(?=\()"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"\b(ein|eine|einen|einer|the|an?) \1\b"#, with: "$1", options: .regularExpression)
            .trimmingCharacters(in: .whitespaces)
        // A sentence ending on a symbol's full stop ("Sei ∼ eine Äquivalenzrelation auf X. Die Menge
        // … heißt …", "… für ein x ∈ X. Wenn …", "… mit Atlas (Ui, ϕi)i∈I. X heißt …") ends there,
        // where the splitter reads an initial.
        var sentences = SentenceSplitter.split(text).map(\.text).flatMap { sentence in
            sentence.replacingOccurrences(of: #"(?<=\s\S[.!?]|[^\p{L}\p{N}\s]\p{L}[.!?])\s+(?=\p{Lu}\p{Ll}*\s)"#, with: "\u{1F}", options: .regularExpression)
                .split(separator: "\u{1F}").map(String.init)
        }
        var setting: [String] = []
        while let first = sentences.first, first.range(of: premise, options: .regularExpression) != nil,
              first.range(of: #"\b(?:[Dd]ann|heißt|heißen|gilt|[Tt]hen|is called|are called)\b"#, options: .regularExpression) == nil {
            setting.append(first)
            sentences.removeFirst()
        }
        guard let claim = sentences.first, setting.count <= 2, claim.range(of: premise, options: .regularExpression) == nil, let opening = claim.first, opening.isUppercase || opening == "„" else { return nil }
        if environment.kind == .definition {
            // The sentence that defines: it says a term of the definition, or how it is named. Of
            // a definition's parts, the first that reads ("a) … der Klasse C k" broke, "b) X heißt
            // differenzierbare Mannigfaltigkeit, wenn … der Klasse C ∞ ist." did not).
            // A later one only where it names the term as defined and stands alone ("Gilt eine
            // Eigenschaft in einer Umgebung, so sagt man …" does not define „Umgebung“; "Dann
            // heißt G …" leans on the sentence that broke).
            let naming = sentences.prefix(3).filter { sentence in terms.contains { sentence.contains($0) } }
            let candidates = naming.isEmpty ? Array(sentences.prefix(3).filter { $0.range(of: definingVerb, options: .regularExpression) != nil }.prefix(1))
                : naming.prefix(1) + naming.dropFirst().filter { sentence in
                    sentence.range(of: #"^(?:Dann|Then|So|Also|Es gilt|It holds)\b"#, options: .regularExpression) == nil
                        && called.matches(in: sentence, range: NSRange(sentence.startIndex..., in: sentence)).contains { match in
                            Range(match.range(at: 1), in: sentence).flatMap { cleanTerm(String(sentence[$0])) }.map(terms.contains) == true
                        }
                }
            // Nor where it uses a map the one that broke declared ("Abbildung d : X × X → R heißt
            // Metrik …" broke; "Das Paar (X, d) heißt metrischer Raum." says nothing of d).
            var declared: Set<Substring> = []
            for candidate in candidates {
                let words = candidate.split(whereSeparator: { " ,.()".contains($0) })
                if declared.isDisjoint(with: words), let statement = stating(candidate, after: setting, kind: environment.kind, following: following) {
                    return statement
                }
                let tokens = candidate.split(separator: " ")
                for (token, next) in zip(tokens, tokens.dropFirst()) where next.hasPrefix(":") && (1...2).contains(token.count) && token.allSatisfy(\.isLetter) {
                    declared.insert(token)
                }
            }
            return nil
        } else if setting.isEmpty, claim.range(of: #"^(?:Dann|Then|So|Also|Es gilt|It holds)\b"#, options: .regularExpression) != nil {
            // "Es gilt: f ist bijektiv …" leans on what came before it.
            return nil
        }
        return stating(claim, after: setting, kind: environment.kind, following: following)
    }

    /// `claim` after its `setting` as the statement a learner reads, or nil where it is no
    /// readable prose (see `stated`). `following` is the notes' text from the block on, where a
    /// definition's named conditions may be printed after the blocks it opens ("§3)
    /// Anordnungsaxiome" after Definition 60).
    private static func stating(_ claim: String, after setting: [String], kind: Kind, following: Substring) -> String? {
        var claim = claim, setting = setting
        // A setting of what follows it ("… ≤ π. Sei im Folgenden „IWS“ …") ends the claim.
        if let next = claim.range(of: #"(?<=[.!?])\s+(?=(?:Sei|Seien|Es sei|Let)\b)"#, options: .regularExpression) {
            claim = String(claim[..<next.lowerBound])
        }
        // "Er heißt zusammengesetzter Weg …" names what the sentence before it wrote.
        if claim.range(of: #"^(?:Er|Sie|Es|It|They) (?:heißt|heißen|wird|werden|is|are)\b"#, options: .regularExpression) != nil { return nil }
        // Conditions listed after a colon, "für die gilt: a) … b) …": kept where each is short.
        // Axioms named in paragraphs of their own, printed as far as the next blocks ("die Axiome
        // §1 - §5 erfüllt: §1) Inzidenzaxiome: (i) …", "§2) Abstandsaxiom: …"): by their names.
        var lead = claim
        if kind == .definition, let colon = claim.range(of: #":\s*§\s?1\)"#, options: .regularExpression) {
            lead = String(claim[..<colon.lowerBound])
            let names = namedConditions(in: following)
            guard names.count >= 2 else { return nil }
            claim = lead + ": " + names.joined(separator: ", ") + "."
        } else if let colon = claim.range(of: #":\s*\(?(?:a|i|1)\)\s"#, options: .regularExpression) {
            lead = String(claim[..<colon.lowerBound])
            let items = String(claim[colon.upperBound...]).replacingOccurrences(of: #"\s\(?(?:[b-e]|ii|iii|iv|[2-5])\)\s"#, with: "\u{1F}", options: .regularExpression)
                .split(separator: "\u{1F}").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " .;")) }
            guard (2...4).contains(items.count), items.allSatisfy({ (1...20).contains($0.split(separator: " ").count) }) else { return nil }
            claim = lead + ": " + items.enumerated().map { "(\(Character(UnicodeScalar(97 + $0.offset)!))) \($0.element)" }.joined(separator: "; ") + "."
        } else if claim.hasSuffix(":") {
            return nil
        }
        // A setting the claim uses none of the symbols of ("Sei im Folgenden „IWS“ die
        // „Innenwinkelsumme“.") is left out.
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: { " ,.()".contains($0) }) }
        let claimWords = Set(words(claim))
        if claim.range(of: #"^(?:Dann|Then|So)\b"#, options: .regularExpression) == nil {
            setting = setting.filter { words($0).contains { $0.count <= 2 && $0.contains(where: \.isLetter) && claimWords.contains($0) } }
        }
        // "Es gilt: f ist bijektiv …" without the setting that names f leans on the text before it.
        if setting.isEmpty, claim.range(of: #"^(?:Es gilt|It holds)\b"#, options: .regularExpression) != nil { return nil }
        // A claim that says nothing its setting does not ("Sei … A ⊆ X zusammenhängend. Dann ist
        // auch A zusammenhängend.") lost a glyph the PDF set apart (the closure's bar over A).
        if !setting.isEmpty {
            let said = Set(words(setting.joined(separator: " ")))
            let filler: Set<Substring> = ["Dann", "ist", "sind", "auch", "gilt", "so", "Then", "is", "are", "also"]
            if claimWords.allSatisfy({ filler.contains($0) || said.contains($0) }) { return nil }
        }
        let whole = (setting + [claim]).joined(separator: " ")
        let tokens = whole.split(separator: " ")
        let leadTokens = (setting + [lead]).joined(separator: " ").split(separator: " ")
        // A claim of words alone may be short ("Überlagerungen sind surjektiv.").
        let wordsAlone = leadTokens.count >= 3
            && leadTokens.allSatisfy { token in token.filter(\.isLetter).count >= 3 && token.allSatisfy { $0.isLetter || ".,-".contains($0) } }
        guard tokens.count <= 60, leadTokens.count >= 5 || wordsAlone, ".!".contains(whole.last ?? " "), closes(whole), MathText.isIntact(whole),
              whole.range(of: detachedScript, options: .regularExpression) == nil,
              whole.range(of: pointsElsewhere, options: .regularExpression) == nil else { return nil }
        // Symbols: a single letter ("X"), a letter with its index ("R2"; "2-dimensionaler" is a
        // word), anything with an operator. A definition's sentence is half symbols at most ("Eine
        // Gruppenoperation von G auf X ist eine Abbildung ◦ : G × X → X"), other statements a third.
        let symbolic = leadTokens.filter { token in
            let letters = token.filter(\.isLetter)
            return letters.count <= 1 || token.contains(where: \.isNumber) && letters.count <= 3 || token.unicodeScalars.contains(where: isMath)
        }.count
        return Double(symbolic) <= (kind == .definition ? 0.5 : 0.35) * Double(leadTokens.count) ? whole : nil
    }

    /// The names of conditions numbered "§1)", "§2)", … in `text`, in their order, as "§1
    /// Inzidenzaxiome": each a word after its number ("§3) Anordnungsaxiome (i) …"), the
    /// numbering without a gap.
    static func namedConditions(in text: Substring) -> [String] {
        let text = String(text)
        var names: [String] = []
        let range = NSRange(text.startIndex..., in: text)
        for match in namedCondition.matches(in: text, range: range) {
            guard let number = Range(match.range(at: 1), in: text).flatMap({ Int(text[$0]) }),
                  let name = Range(match.range(at: 2), in: text) else { continue }
            if number == names.count + 1 {
                names.append("§\(number) \(text[name])")
            } else if number > names.count + 1 {
                break
            }
        }
        return names
    }

    private static let namedCondition = try! NSRegularExpression(pattern: #"§\s?(\d{1,2})\)\s*(\p{Lu}[\p{L}-]{3,})(?![\p{L}-])"#)

    /// An index or exponent the PDF set apart from its symbol ("g −1 (U)", "S n", "C k", "S 2",
    /// "−ds n"): the
    /// formula no longer reads as printed.
    /// A big operator's lone index ("(−1)n an (K) n=0" for a sum, "∂X := (U,ϕ)∈A {x ∈ U | …}"
    /// for a union) is one too.
    static let detachedScript = #":?=\s+[^\s=]+∈[^\s=]+\s|\s[−-]1\b|[−-]\p{Ll}{1,2} \p{Ll}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\p{Lu} \d(?![\p{N}.])|(?<![\p{L}\p{N}])\p{Lu} \p{Ll}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\p{L}=\d"#
    /// A statement that leans on another ("diese Begriffe", "die Bedingung in Definition 31.a").
    static let pointsElsewhere = #"\b(?:[Dd]iese[rsmn]?|[Tt]his|[Tt]hese|[Tt]hose|[Oo]bige[rsmn]?|(?:Definition|Satz|Bemerkung|Beispiel|Lemma|Theorem|Abbildung) \d)"#

    /// A sentence that only sets the scene ("Sei X ein Raum.", "Let X be a space.").
    static let premise = #"^(?:Sei|Seien|Es sei|Es seien|Weiter sei|Let|Suppose|Assume)\b"#
    static let definingVerb = #"\b(?:heißt|heißen|nennt man|bezeichnet|is called|are called|is said to be|we call|ist|sind|is|are)\b"#

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
            result.append(Environment(kind: kind, name: name, label: label, body: String(text[whole.upperBound..<next]), start: whole.lowerBound))
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
        let articles: Set<String> = ["ein", "eine", "einen", "einer", "der", "die", "das", "dann", "auch", "es", "a", "an", "the", "also", "genau"]
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
        // "C k -Struktur" without its symbol is no term.
        return term.filter(\.isLetter).count >= 3 && !term.hasPrefix("-") ? term : nil
    }

    static func isMath(_ scalar: Unicode.Scalar) -> Bool {
        // Operators (U+2200–22FF: ∆, ∑, ⊆ …), arrows, Greek letters.
        "=<>|\\{}[]^_×".unicodeScalars.contains(scalar) || (0x0370...0x03FF).contains(scalar.value)
            || (0x2190...0x21FF).contains(scalar.value) || (0x2200...0x22FF).contains(scalar.value)
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
