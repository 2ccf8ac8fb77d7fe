import Foundation

/// Objectives from what a short text states, for a topic whose text defines no term in a book's
/// form, names no rule twice and draws no contrast in words (`OfflineObjectives` found none):
/// terms set in a run-in heading ("Diffusion. Molecules spread …" → "Define diffusion and
/// osmosis"), labelled formulas ("Integral of sine:" over a formula → "Calculate the integral
/// of … and sine"), a rule the text states once ("The power rule says that …"), a count of kinds
/// it lists ("metropolis supports 4 different titleformats:"), two kinds it describes side by
/// side ("C4 plants such as maize …", "CAM plants such as cacti …" → "Compare C4 plants and CAM
/// plants"), and the quantities a problem or a lecture sets out to find ("Calculate T, the
/// tension in the rope at the midpoint", "let's calculate the kinetic energy"). Without these,
/// such a topic carried its unit's overall objective, which fitted it in 0 of 5 graded cases
/// (seed 5813).
enum StatedObjectives {
    /// Objectives of each kind at most, and words a task's quantity keeps at most.
    static let perKind = 2
    static let taskWords = 9

    /// `lines`: the text's lines (a run-in heading begins one); `sentences`: its sentences;
    /// `spoken`: whether it is a transcript (where "Okay." is no heading); `textWords`: its stems.
    static func objectives(lines: [String], sentences: [String], spoken: Bool, textWords: [String],
                           phrase: (String) -> String) -> [String] {
        var statements: [String] = []
        if !spoken {
            let (terms, labels) = runInTerms(lines: lines, sentences: sentences)
            if !terms.isEmpty {
                // A run-in heading capitalises its term for its place: "Diffusion." is "diffusion".
                statements.append("Define " + OfflineObjectives.list(terms.prefix(OfflineObjectives.termsPerDefinition).map { phrase(lowerFirst($0)) }))
            }
            if let labelled = labelledFormulas(labels) { statements.append("Calculate " + labelled) }
        }
        statements += statedRules(in: sentences).prefix(perKind)
        statements += enumerations(in: sentences, textWords: textWords).prefix(perKind)
        if let pair = sideBySide(in: sentences) { statements.append("Compare \(pair.0) and \(pair.1)") }
        statements += tasks(in: sentences, textWords: textWords).prefix(perKind)
        statements += promised(in: sentences).prefix(perKind)
        return statements
    }

    // MARK: What a lecture says it teaches

    /// What a course or lecture says it teaches: "we'll teach you the basics of how to use a
    /// Transformer model, fine-tune it on your own data set and share the result" → "Use a
    /// Transformer model, fine-tune it on your own data set and share the result", "designed to
    /// teach you all about the Hugging Face ecosystem" → "Describe the Hugging Face ecosystem".
    /// A welcome lecture's key phrases made "Describe Transformer model and teach". Only sentences
    /// holding "teach", "learn how" or "show(s) you" are matched.
    static func promised(in sentences: [String]) -> [String] {
        let how = #"(?i)\b(?:teach(?:es)?|show(?:s)?) you (?:the basics of |all about )?how to ([a-z][a-z\-’' ,]*)"#
        let about = #"(?i)\bteach(?:es)? you (?:all )?about (the [a-z][a-z\-’' ]*|[A-Z][A-Za-z\-’' ]*)"#
        let learn = #"(?i)\byou(?:['’]ll| will) learn how to ([a-z][a-z\-’' ,]*)"#
        var result: [String] = []
        for sentence in sentences {
            // A scan of the sentence as it is (no lower-cased copy of every sentence).
            guard sentence.contains("teach") || sentence.contains("Teach") || sentence.contains("learn how") || sentence.contains("how you") || sentence.contains("hows you") else { continue }
            for groups in captures(about, in: sentence) where groups.count == 1 {
                if let skill = skill(groups[0]) { result.append("Describe " + skill) }
            }
            for groups in captures(how, in: sentence) + captures(learn, in: sentence) where groups.count == 1 {
                if let skill = skill(groups[0]) { result.append(skill.prefix(1).uppercased() + skill.dropFirst()) }
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0.lowercased()).inserted }
    }

    /// A promised skill, whole: it ends where a clause begins ("as well as", "so that", "which"),
    /// without a trailing comma or function word, of two words at least and `skillWords` at most.
    static func skill(_ text: String) -> String? {
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if !words.isEmpty, skillEnds.contains(word.lowercased()) { break }
            words.append(word)
        }
        while let last = words.last {
            let bare = last.trimmingCharacters(in: CharacterSet(charactersIn: ","))
            let lower = bare.lowercased()
            if bare.isEmpty || ContentWords.stopwords.contains(lower) || KeyTermExtraction.prepositions.contains(lower) {
                words.removeLast()
            } else {
                words[words.count - 1] = bare
                break
            }
        }
        guard words.count >= 2, words.count <= skillWords else { return nil }
        return words.joined(separator: " ")
    }

    /// Words a promised skill keeps at most, and words where it has ended.
    static let skillWords = 20
    static let skillEnds: Set<String> = ["as", "so", "which", "because", "if", "when", "how", "but", "while"]

    // MARK: Run-in headings

    /// Terms a run-in heading sets before its definition ("Diffusion. Molecules spread …",
    /// "Fixation: the enzyme rubisco …"), and labels that stand over a formula ("Integral of
    /// sine:" with "… = …" on the next line), each once in order.
    static func runInTerms(lines: [String], sentences: [String]) -> (terms: [String], labels: [String]) {
        var labels: [String] = []
        // (term, set with a colon): a colon sets a term alone; a full stop ends short sentences
        // too ("Water boils."), so those count as headings only where the text has two or more.
        var candidates: [(term: String, colon: Bool)] = []
        func propose(_ term: String, colon: Bool) {
            guard isHeadingTerm(term), colon || isStoppedTerm(term) else { return }
            if let known = candidates.firstIndex(where: { $0.term.lowercased() == term.lowercased() }) {
                candidates[known].colon = candidates[known].colon || colon
            } else {
                candidates.append((term, colon))
            }
        }
        let cleaned = lines.map(withoutMarker)
        for (index, line) in cleaned.enumerated() {
            if line.hasSuffix(":"), index + 1 < cleaned.count, cleaned[index + 1].contains("=") {
                let label = String(line.dropLast()).trimmingCharacters(in: .whitespaces)
                if isLabel(label), !labels.contains(where: { $0.lowercased() == label.lowercased() }) { labels.append(label) }
                continue
            }
            // A PDF sets the run-in term on a line of its own: "Diffusion" over "Molecules spread … ."
            if index + 1 < cleaned.count, line.split(separator: " ").count <= 3, line.last?.isLetter == true,
               cleaned[index + 1].split(separator: " ").count >= 5, cleaned[index + 1].first?.isUppercase == true, cleaned[index + 1].hasSuffix(".") {
                propose(line, colon: false)
                continue
            }
            guard let groups = captures(#"^([A-Z][\w’'\-]*(?: [\w’'\-]+){0,3})(\.|:) +(\S.*)$"#, in: line).first, groups.count == 3 else { continue }
            let rest = groups[2]
            // After a full stop the definition is a sentence of its own; after a colon it may run on.
            guard rest.split(separator: " ").count >= 4, groups[1] == ":" || rest.first?.isUppercase == true else { continue }
            propose(groups[0], colon: groups[1] == ":")
        }
        // A paragraph joined from lines: the heading is a "sentence" of its own before its definition.
        for (index, sentence) in sentences.enumerated() where index + 1 < sentences.count && sentence.hasSuffix(".") {
            let term = String(sentence.dropLast()).trimmingCharacters(in: .whitespaces)
            guard term.first?.isUppercase == true, sentences[index + 1].split(separator: " ").count >= 5 else { continue }
            propose(term, colon: false)
        }
        let stopped = candidates.filter { !$0.colon }.count
        return (candidates.filter { $0.colon || stopped >= 2 }.map(\.term), labels)
    }

    /// A term a full stop ends: up to three words, none after the first a verb's form ("Water
    /// boils", "Light strikes photosystem II" are sentences).
    static func isStoppedTerm(_ term: String) -> Bool {
        let words = term.split(separator: " ").map { $0.lowercased() }
        guard words.count <= 3 else { return false }
        return !words.dropFirst().contains { word in
            KeyTermExtraction.verbs.contains(word) || ContentWords.stopwords.contains(word)
                || (word.hasSuffix("s") && !word.hasSuffix("ss") && words.count == 2 && word.first?.isLowercase == true && !word.hasSuffix("ics"))
        }
    }

    /// A list's bullet or number before a line's text.
    static func withoutMarker(_ line: String) -> String {
        var text = line.replacingOccurrences(of: "**", with: "").trimmingCharacters(in: .whitespaces)
        if let marker = text.range(of: #"^(?:[-•*–]|\d{1,2}[.)]|\([a-z0-9]\))\s+"#, options: .regularExpression) {
            text = String(text[marker.upperBound...])
        }
        return TextCleanup.collapseWhitespace(text)
    }

    /// A term a heading can set: a concept, not apparatus ("Note", "Example"), an instruction, an
    /// everyday word, a sentence of its own ("Stop.") or a number.
    static func isHeadingTerm(_ term: String) -> Bool {
        let words = term.split(separator: " ").map { $0.lowercased() }
        guard let first = words.first, !term.contains("\\"), !term.contains(where: \.isNumber) || words.count > 1,
              OfflineObjectives.isConcept(term), OfflineObjectives.definable(term),
              !OfflineObjectives.apparatus.contains(term.lowercased()), !OfflineObjectives.instructions.contains(first),
              !headingFurniture.contains(first), !KeyTermExtraction.verbs.contains(words.last!) else { return false }
        return !words.contains { KeyPhrases.spokenFillers.contains($0) }
    }

    /// A label over a formula ("Integral of a polynomial function"): a noun phrase of up to six
    /// words, not furniture, no mathematics of its own.
    static func isLabel(_ label: String) -> Bool {
        let words = label.split(separator: " ").map { $0.lowercased() }
        guard let first = words.first, let last = words.last, words.count <= 6, label.first?.isUppercase == true,
              !label.contains("\\"), !label.contains("="), !headingFurniture.contains(first), !OfflineObjectives.instructions.contains(first),
              !ContentWords.stopwords.contains(last), !KeyTermExtraction.prepositions.contains(first) else { return false }
        return true
    }

    /// Run-in words that open a remark, not a term.
    static let headingFurniture: Set<String> = [
        "note", "example", "examples", "warning", "tip", "hint", "remark", "caution", "important", "source", "sources", "credit",
        "figure", "fig", "table", "answer", "solution", "question", "exercise", "problem", "definition", "theorem", "proof",
        "lemma", "yes", "no", "okay", "ok", "well", "right", "good", "great", "thanks", "also", "however", "therefore", "thus",
        "first", "second", "third", "finally", "then", "next", "today", "now", "here", "there", "see", "page", "date", "time",
    ]

    /// "the integral of a polynomial function, an exponential function and sine" from labels
    /// sharing their first words ("Integral of a polynomial function", "Integral of sine").
    static func labelledFormulas(_ labels: [String]) -> String? {
        let kept = Array(labels.prefix(OfflineObjectives.termsPerDefinition))
        guard !kept.isEmpty else { return nil }
        let split = kept.map { $0.split(separator: " ").map(String.init) }
        var shared = 0
        while kept.count > 1, split.allSatisfy({ $0.count > shared + 1 && $0[shared].lowercased() == split[0][shared].lowercased() }) { shared += 1 }
        // Factor a shared lead only up to a preposition ("Integral of"), so each item keeps a noun.
        while shared > 0, !["of", "for", "in", "on"].contains(split[0][shared - 1].lowercased()) { shared -= 1 }
        let lead = split[0].prefix(shared).joined(separator: " ").lowercased()
        let items = split.map { $0.dropFirst(shared).joined(separator: " ") }.map { shared == 0 ? lowerFirst($0) : $0 }
        return "the " + (lead.isEmpty ? "" : lead + " ") + OfflineObjectives.list(items)
    }

    static func lowerFirst(_ text: String) -> String {
        let firstWord = text.split(separator: " ").first ?? ""
        guard let first = text.first, first.isUppercase, !firstWord.dropFirst().contains(where: { $0.isUppercase || $0.isNumber }) else { return text }
        return first.lowercased() + text.dropFirst()
    }

    // MARK: Rules stated once

    /// "The power rule says that …", "Newton's second law states that …": a rule the text states,
    /// once being enough (`OfflineObjectives.rules` asks two mentions of a rule only named).
    static func statedRules(in sentences: [String]) -> [String] {
        let pattern = #"\b(?:the )?([A-Za-z][\w’'\-]*(?: [A-Za-z][\w’'\-]*)?) (rule|law|theorem|principle) (?:says|states|tells us|asserts|gives)(?: us)? that\b"#
        var result: [String] = []
        for sentence in sentences {
            for groups in captures(pattern, in: sentence) where groups.count == 2 {
                let words = groups[0].split(separator: " ").map(String.init).drop { ContentWords.stopwords.contains($0.lowercased()) || KeyTermExtraction.vague.contains($0.lowercased()) }
                guard let first = words.first, !KeyTermExtraction.prepositions.contains(first.lowercased()),
                      !words.contains(where: { OfflineObjectives.numberWords.contains($0.lowercased()) }) else { continue }
                let name = (words + [groups[1].lowercased()]).joined(separator: " ")
                let possessive = first.hasSuffix("’s") || first.hasSuffix("'s")
                let statement = (groups[1].lowercased() == "principle" ? "Explain " : "Apply ") + (possessive ? "" : "the ") + name
                if !result.contains(statement) { result.append(statement) }
            }
        }
        return result
    }

    // MARK: Counted kinds

    /// "metropolis supports 4 different titleformats:", "There are three types of …" without an
    /// "of": what the text lists and counts, as "Identify the four titleformats metropolis supports".
    static func enumerations(in sentences: [String], textWords: [String]) -> [String] {
        let pattern = #"(?:\b([A-Za-z][\w\-]*) (supports|has|offers|provides|uses|includes|distinguishes|defines|recognizes|recognises) )?"#
            + #"\b(two|three|four|five|six|seven|eight|nine|ten|[2-9]|10) (?:different |main |basic |distinct |major |kinds of |types of )?"#
            + #"([a-z][\w\-]*(?: [a-z][\w\-]*)?s)(?=:| are | can be | exist)"#
        var result: [String] = []
        for sentence in sentences {
            for groups in captures(pattern, in: sentence) where groups.count >= 2 {
                // Optional groups that did not take part are left out of `groups`: the last two are the count and the noun.
                let noun = groups[groups.count - 1], count = groups[groups.count - 2]
                let head = String(noun.split(separator: " ").last!)
                let singular = String(head.dropLast())
                guard !countedFurniture.contains(head.lowercased()), OfflineObjectives.definable(singular),
                      OfflineObjectives.isConcept(noun), TermMatcher.count(TermMatcher.stems(head), in: textWords) >= 2 else { continue }
                // "given the two sequences, we …", "these three forces are": things at hand in an
                // example, counted; not kinds the subject is sorted into ("the two main kinds are").
                let lower = sentence.lowercased(), counted = " \(count.lowercased()) \(noun.lowercased())"
                guard !["the", "these", "those"].contains(where: { lower.hasPrefix($0 + counted) || lower.contains(" " + $0 + counted) }) else { continue }
                let number = Int(count).map { numberNames[$0] } ?? count.lowercased()
                var statement = "Identify the \(number) \(noun)"
                if groups.count == 4, !ContentWords.stopwords.contains(groups[0].lowercased()), !KeyTermExtraction.vague.contains(groups[0].lowercased()) {
                    statement += " \(groups[0]) \(groups[1])"
                }
                if !result.contains(statement) { result.append(statement) }
            }
        }
        return result
    }

    static let numberNames = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// Counted things that are no kinds to learn.
    static let countedFurniture: Set<String> = [
        "times", "minutes", "seconds", "hours", "days", "weeks", "months", "years", "ways", "things", "people", "examples",
        "questions", "pages", "slides", "parts", "points", "cases", "steps", "lines", "words", "items", "others", "ones",
        "sections", "chapters", "lectures", "videos", "problems", "exercises", "figures", "tables", "decimals", "digits",
        // Counted on the board, not kinds a subject is sorted into: "the two vectors", "these three quantities".
        "facts", "quantities", "dimensions", "vectors", "periods", "variables", "equations", "unknowns", "objects", "blocks",
        "masses", "components", "directions", "terms", "numbers", "values", "conditions", "ends", "sides", "bodies", "particles",
        "situations", "pieces", "axes", "angles", "forms",
    ]

    // MARK: Kinds side by side

    /// Two sentences whose subjects name two kinds of one thing ("C4 plants such as maize …",
    /// "CAM plants such as cacti …"): the text sets them side by side.
    static func sideBySide(in sentences: [String]) -> (String, String)? {
        var byHead: [String: [String]] = [:]
        var order: [String] = []
        for sentence in sentences {
            guard let groups = captures(#"^([A-Z0-9][\w\-]*) ([a-z][a-z\-]+) (?:such as|like|are|is|have|has|use|can|do|open|make|keep|first|also)\b"#, in: sentence).first,
                  groups.count == 2 else { continue }
            let (kind, head) = (groups[0], groups[1])
            let lower = kind.lowercased()
            guard !ContentWords.stopwords.contains(lower), !KeyTermExtraction.vague.contains(lower), !KeyTermExtraction.prepositions.contains(lower),
                  !ContentWords.stopwords.contains(head), !KeyTermExtraction.verbs.contains(head), !head.hasSuffix("ly"),
                  !OfflineObjectives.everydayNouns.contains(head), !KeyPhrases.spokenFillers.contains(lower) else { continue }
            let subject = "\(kind) \(head)"
            if byHead[head] == nil { order.append(head) }
            if !(byHead[head] ?? []).contains(where: { $0.lowercased() == subject.lowercased() }) { byHead[head, default: []].append(subject) }
        }
        guard let head = order.first(where: { (byHead[$0] ?? []).count >= 2 }), let kinds = byHead[head] else { return nil }
        return (kinds[0], kinds[1])
    }

    // MARK: Tasks

    /// What a problem asks ("Calculate T_mid, the tension in the rope at the midpoint", "What is
    /// the speed v at which …?") and what a lecture sets out to work out ("let's calculate the
    /// kinetic energy", "we want to derive the universal law of gravitation"), as the task it
    /// teaches: "Calculate the tension in the rope at the midpoint".
    static func tasks(in sentences: [String], textWords: [String]) -> [String] {
        let asked = #"^(?:\([a-z0-9]\)\s*|(?:So|And|Now|OK|Okay|Well),? )?(Find|Calculate|Determine|Compute|Derive|What is|What are|[Ww]hat is|[Ww]hat are) (.+)$"#
        let spoken = #"(?i)\b(?:let['’]s|let us|we(?:['’]re going to| are going to| will|['’]ll| want to| need to| can|['’]d like to| would like to)|i(?:['’]m going to| want to| will|['’]ll|['’]d like to))(?: now| first| also| then| just)? (derive|calculate|compute|determine|find|solve for) (the [a-z][a-z\-]*(?: [a-z][a-z\-]*){0,7})"#
        var result: [String] = []
        for sentence in sentences {
            let found = captures(asked, in: sentence) + captures(spoken, in: sentence)
            for groups in found where groups.count == 2 {
                guard let quantity = quantity(groups[1], textWords: textWords) else { continue }
                let verb: String
                switch groups[0].lowercased() {
                case "derive": verb = "Derive"
                case "calculate", "compute", "solve for": verb = "Calculate"
                default: verb = "Determine"
                }
                let statement = "\(verb) \(quantity)"
                if !result.contains(where: { $0.lowercased().hasSuffix(quantity.lowercased()) }) { result.append(statement) }
            }
        }
        return result
    }

    /// The quantity a task names: inline mathematics and a symbol before its name go ("T_mid,
    /// the tension …"), and it ends where a condition or clause begins; nil unless it names a
    /// concept the text speaks of twice.
    static func quantity(_ text: String, textWords: [String]) -> String? {
        var rest = text.replacingOccurrences(of: #"\\\(.*?\\\)"#, with: " ", options: .regularExpression)
        rest = TextCleanup.collapseWhitespace(rest).trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
        // A symbol named before its quantity, "T_mid, the tension …": the name follows the comma.
        if !["the ", "a ", "an "].contains(where: { rest.lowercased().hasPrefix($0) }), let comma = rest.range(of: ", the "),
           rest.distance(from: rest.startIndex, to: comma.lowerBound) <= 24 {
            rest = String(rest[rest.index(comma.lowerBound, offsetBy: 2)...])
        }
        var words: [String] = []
        for word in rest.split(separator: " ").map(String.init) {
            let bare = word.trimmingCharacters(in: .punctuationCharacters)
            let lower = bare.lowercased()
            // A symbol ends the name: "the position x of t" is "the position".
            if words.count >= taskWords || taskEnds.contains(lower) || bare.isEmpty || (bare.count == 1 && lower != "a") || bare.contains(where: { !$0.isLetter && $0 != "-" && $0 != "'" && $0 != "’" }) { break }
            if words.isEmpty, !["the", "a", "an"].contains(lower) { return nil }
            words.append(bare)
            if word.last.map({ ",;:.?!".contains($0) }) == true { break }
        }
        while let last = words.last, ContentWords.stopwords.contains(last.lowercased()) || KeyTermExtraction.prepositions.contains(last.lowercased()) {
            words.removeLast()
        }
        // "the angular momentum about some point" names no point: the quantity is what is asked.
        if let about = words.lastIndex(where: { $0.lowercased() == "about" }), about >= 2,
           words[about...].last.map({ ["point", "points"].contains($0.lowercased()) }) == true,
           words[(about + 1)..<(words.count - 1)].allSatisfy({ ["some", "the", "a", "this", "that", "any"].contains($0.lowercased()) }) {
            words.removeSubrange(about...)
        }
        guard words.count >= 2 else { return nil }
        words[0] = words[0].lowercased()
        let name = words.dropFirst().joined(separator: " ")
        let content = TermMatcher.stems(name).filter { !ContentWords.stopwords.contains($0) }
        guard OfflineObjectives.isConcept(words[1]) || OfflineObjectives.isConcept(name),
              !OfflineObjectives.everydayNouns.contains(name.lowercased()), !KeyTermExtraction.vague.contains(words[1].lowercased()),
              content.contains(where: { TermMatcher.count([$0], in: textWords) >= 2 }) else { return nil }
        return words.joined(separator: " ")
    }

    /// Words where a task's quantity has ended: a condition, a clause, a pronoun.
    static let taskEnds: Set<String> = [
        "if", "when", "given", "assuming", "using", "such", "that", "which", "so", "and", "is", "are", "was", "will", "would",
        "should", "can", "it", "this", "we", "you", "i", "right", "okay", "now", "then", "here", "there", "out", "up", "just",
        "as", "by", "from", "after", "before", "where", "because", "do", "does", "again", "first", "terms",
        "due", "caused", "acting",  // "the torque about the center of mass due to the action of some forces"
        "our", "your", "my", "his", "her", "their", "its", "these", "those",  // "the change in potential energy between our initial …"
    ]

    /// The patterns, compiled once each.
    private static let compiled = Locked<[String: NSRegularExpression]>([:])

    static func captures(_ pattern: String, in text: String) -> [[String]] {
        let cached = compiled.withLock { $0[pattern] }
        guard let regex = cached ?? (try? NSRegularExpression(pattern: pattern, options: [])) else { return [] }
        if cached == nil { compiled.withLock { $0[pattern] = regex } }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { index in
                Range(match.range(at: index), in: text).map { String(text[$0]).trimmingCharacters(in: .whitespaces) }
            }
        }
    }
}
