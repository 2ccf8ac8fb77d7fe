import Foundation

/// The offline summariser: TextRank (Mihalcea and Tarau, 2004) over TF-IDF cosine similarity
/// between sentences ranks them, a sentence that opens its paragraph (where writers put their
/// topic sentence) or names the topic's subject (its title's words) counts more, and maximal
/// marginal relevance (Carbonell and Goldstein, 1998) picks central sentences that do not repeat
/// each other, shown in reading order. Only sentences that stand alone are candidates: none that
/// leans on the one before ("This…", "And…", "First, it…", "Most are…"), no figure credit or
/// caption, exercise prompt, reference entry, question, link, or line of a derivation, of broken
/// symbols or of LaTeX that lost its backslashes; the checks look up a sentence's first words in
/// sets. The key points are the top key phrases from TextRank over word co-occurrence.
/// Deterministic: the same text always gives the same summary. On the OpenStax philosophy book's
/// 53 modules with their summary withheld it scores above lead and sumy's TextRank, LexRank and
/// LSA on ROUGE-2 and ROUGE-L against the authors' summaries (bench/summary_rouge.sh).
public struct ExtractiveSummarizer: Summarizer {
    public let provider = "extractive"
    public let model = "textrank-mmr/4"
    /// Sentences ranked together at most; longer texts are ranked in windows whose winners
    /// are ranked again, which keeps a 1,000-page book linear rather than quadratic.
    var window = 300
    var maxKeyPoints = 6
    /// Relevance against novelty in the selection (1: rank alone).
    var lambda = 0.8
    /// How much more a sentence that defines a term or states a law or result counts.
    var definitionWeight = 1.2
    /// How much more a sentence that holds all of the title's subject words counts (in part for
    /// two thirds or more of them). 0.5: on the book's modules, counting any share of the words,
    /// 0.2/0.3/0.5/0.8 gave ROUGE-2 0.178/0.184/0.188/0.189 against 0.168 without; the gain
    /// flattens past 0.5. Two thirds of the words at least: 0.186 (half: 0.192, all: 0.179), and
    /// "The Calvin cycle" keeps its stages instead of every sentence that says "cycle".
    var subjectWeight = 0.5

    public init() {}

    public func summarize(_ input: SummaryInput) throws -> Summary {
        // A whole document: its opening text and its sections' summaries.
        let paragraphs = input.paragraphs + input.sectionSummaries.map(\.summary.text)
        let sentences = Self.sentences(paragraphs)
        guard !sentences.isEmpty else {
            throw LecternError(.empty, input.section ?? input.title, "no text to summarise")
        }
        let words = sentences.reduce(0) { $0 + $1.words.count }
        let wanted = min(sentences.count, max(3, min(5, 3 + words / 1500)))
        let chosen = choose(sentences, count: wanted, title: input.title)
        let text = chosen.sorted().map { sentences[$0].text }.joined(separator: " ")
        return Summary(text: text, keyPoints: Self.keyPhrases(sentences, limit: maxKeyPoints))
    }

    /// A summary of about `words` words (whole sentences until it reaches them), else of 3–5
    /// sentences: what `lectern summarize --paragraphs` prints.
    public func summarizeText(title: String, paragraphs: [String], words: Int?) throws -> String {
        guard let words, words > 0 else { return try summarize(SummaryInput(title: title, paragraphs: paragraphs)).text }
        let sentences = Self.sentences(paragraphs)
        guard !sentences.isEmpty else { throw LecternError(.empty, title, "no text to summarise") }
        let chosen = choose(sentences, count: sentences.count, words: words, title: title)
        return chosen.sorted().map { sentences[$0].text }.joined(separator: " ")
    }

    // MARK: Sentences

    struct Sentence {
        var text: String
        /// Folded content words (stopwords out), in order.
        var words: [String]
        /// It opens its paragraph.
        var opensParagraph = false
        var wordCount = 0
    }

    /// Sentences of 6–60 words that stand alone, from the paragraphs (statements of any length
    /// when none does).
    static func sentences(_ paragraphs: [String]) -> [Sentence] {
        var all: [Sentence] = []
        var folded: [String: String] = [:]  // folding is slow; a text repeats its words
        var seen: Set<String> = []
        func fold(_ word: String) -> String {
            if let known = folded[word] { return known }
            let result = WordTokenizer.fold(word)
            folded[word] = result
            return result
        }
        for paragraph in paragraphs {
            // Heading lines a merged passage carries ("2.1 Dominant and recessive alleles") are
            // not part of the sentence that follows them.
            // A figure's caption is the line its credit ends ("Thinking: a sculpture of two figures in
            // Prague. (credit: …)"): the caption goes with the credit.
            let uncredited = paragraph.contains("(credit:")
                ? paragraph.replacingOccurrences(of: #"(?m)^[^\n]{0,200}?\(credit:[^)\n]*\)[ \t]*$"#, with: "", options: .regularExpression) : paragraph
            let lines = joined(uncredited.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
            let body = lines.count > 1 ? lines.filter { !isHeadingLine($0) }.joined(separator: "\n") : lines.first ?? paragraph
            for (position, piece) in SentenceSplitter.split(TextCleanup.collapseWhitespace(body), symbols: true).enumerated() {
                var piece = piece
                // A citation left before the sentence by the split ("(Plato, Apology) This idea…").
                if let citation = piece.text.range(of: #"^\([^()]{1,60}\)\s+(?=\p{Lu})"#, options: .regularExpression) {
                    piece.text.removeSubrange(citation)
                }
                // A block's opener left before it by a PDF's notes ("Beispiel 13 (Stetige Abbildungen)
                // Beobachtung: Die Quotiententopologie …"): a heading, not part of the sentence.
                if let first = piece.text.split(separator: " ", maxSplits: 1).first, blockNames.contains(first.trimmingCharacters(in: [":"])),
                   let opener = piece.text.range(of: blockOpener, options: .regularExpression) {
                    piece.text.removeSubrange(opener)
                }
                let tokens = WordTokenizer.words(piece.text)
                // Passages repeat the last sentences of the one before (the chunker's overlap):
                // a sentence counts once.
                guard !tokens.isEmpty, seen.insert(piece.text).inserted else { continue }
                all.append(Sentence(text: piece.text, words: tokens.map(fold).filter { !ContentWords.stopwords.contains($0) && $0.count > 1 },
                                    opensParagraph: position == 0, wordCount: piece.text.split(whereSeparator: \.isWhitespace).count))
            }
        }
        let usable = all.filter { $0.wordCount >= 6 && $0.wordCount <= 60 && !$0.words.isEmpty && standsAlone($0.text) }
        if usable.count >= 3 { return usable }
        // Short or unusual text: the statements, even if they lean on each other.
        // (Not a line of working: "so dr/dt = 100 / (4π · 25) = 1/π cm/s" without its question.)
        let statements = all.filter { sentence in
            !sentence.words.isEmpty && sentence.wordCount >= 4 && sentence.wordCount <= 80 && !isFurniture(sentence.text) && !lostItsSymbols(sentence.text)
                && (sentence.text.filter({ $0 == "=" }).count < 2 || statesACondition(sentence.text))
                && !Patterns.detachedScript.matches(sentence.text) && !Patterns.lostFormula.matches(sentence.text) && !Patterns.listMark.matches(sentence.text)
                && (sentence.wordCount >= 12 || !proofSteps.contains(sentence.text.prefix { $0.isLetter }.lowercased()))
                && !mostlySymbols(sentence.text, share: 0.4)
                && !sentence.text.trimmingCharacters(in: closingMarks).hasSuffix("?") && !isPrompt(sentence.text)
                && !lostItsMarkup(sentence.text) && !":,;".contains(sentence.text.last ?? ".") && !opensInLowerCase(sentence.text)
        }
        if statements.count > usable.count { return statements }
        return usable.isEmpty ? all.filter { !$0.words.isEmpty } : usable
    }

    /// A paragraph's lines with what a line leads into joined to it: a lead-in and the short
    /// items of its list ("metropolis supports 4 different titleformats:" and "• Regular",
    /// "• Smallcaps", …) as one sentence that names them, and a sentence ending on "and", "is"
    /// or a colon with the formula displayed under it ("… is differentiable at x and" and
    /// "h'(x) = f'(g(x)) · g'(x)"). Apart, the lead-in is a fragment and the items or the
    /// formula read as headings.
    static func joined(_ lines: [String]) -> [String] {
        guard lines.count > 1 else { return lines }
        var result: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            guard line.split(separator: " ").count >= 3, let last = line.split(separator: " ").last else {
                result.append(line)
                continue
            }
            if line.hasSuffix(":") {
                var items: [String] = []
                while index < lines.count, let item = listItem(lines[index]) {
                    items.append(item)
                    index += 1
                }
                if (2...8).contains(items.count), items.allSatisfy({ $0.split(separator: " ").count <= 6 && !".!?".contains($0.last ?? ".") }) {
                    let sentence = line + " " + items.joined(separator: ", ") + "."
                    result.append(sentence.prefix(1).uppercased() + sentence.dropFirst())
                } else {
                    result.append(line)
                    result += items.isEmpty ? [] : lines[(index - items.count)..<index]
                }
                continue
            }
            // A formula shown on its own line after the words that lead into it.
            if ["and", "or", "is", "are", "gives", "by", "as", "und", "ist", "gilt"].contains(last) || line.hasSuffix(":"), index < lines.count {
                let formula = lines[index]
                if formula.contains("="), formula.split(separator: " ").count <= 12, !".!?:".contains(formula.last ?? "."),
                   formula.filter(\.isLetter).count * 2 <= formula.count {
                    result.append(line + " " + formula + ".")
                    index += 1
                    continue
                }
            }
            result.append(line)
        }
        return result
    }

    /// A list item's text without its bullet ("• Regular", "- Regular"); nil for other lines.
    static func listItem(_ line: String) -> String? {
        for bullet in ["• ", "- ", "* ", "– ", "◦ ", "▪ "] where line.hasPrefix(bullet) {
            return line.dropFirst(bullet.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// A statement of a condition and what follows from it ("If g is differentiable at x and …,
    /// then … h'(x) = f'(g(x)) · g'(x)."): a rule with its formulas, not a line of working.
    static func statesACondition(_ text: String) -> Bool {
        text.range(of: #"(?:^|: )(?:If|When|Whenever|Wenn|Falls|Ist)\b.{8,}(?:\b(?:then|dann|so)\b|⟹|⇒)"#, options: .regularExpression) != nil
    }

    /// Names of a notes' blocks, and a block's opener before a sentence or alone (its name,
    /// number and label, or a remark's label: "Beispiel 13 (Stetige Abbildungen) ", "Beobachtung: ").
    static let blockNames: Set<String> = ["Beispiel", "Example", "Bemerkung", "Remark", "Definition", "Satz", "Theorem", "Lemma", "Korollar",
                                          "Folgerung", "Proposition", "Corollary", "Beobachtung", "Observation", "Note", "Hinweis"]
    static let blockOpener = #"^(?:(?:Beispiel|Example|Bemerkung|Remark|Definition|Satz|Theorem|Lemma|Korollar|Folgerung|Proposition|Corollary) \d+(?:\.\d+)*\.?(?: \([^()]{2,60}\))? )?(?:Beobachtung|Bemerkung|Observation|Remark|Note|Hinweis): (?=\p{Lu})|^(?:Beispiel|Example|Bemerkung|Remark) \d+(?:\.\d+)*\.?(?: \([^()]{2,60}\))?(?: (?=\p{Lu})|$)"#

    /// A line that reads as a heading: a few words without a sentence's closing mark, or an
    /// entry of a listing of lessons ("9.2 Uniform Circular Motion - Direction of the
    /// Acceleration", "PS.7.1 Worked Example - …", "Lesson 21: Kinetic Energy and Work in 2D
    /// and 3D"), which a week's overview page lists before its text.
    static func isHeadingLine(_ line: String) -> Bool {
        // A notes' block opener alone on its line ("Beispiel 13 (Stetige Abbildungen und Homöomorphismen)").
        if let first = line.split(separator: " ", maxSplits: 1).first, blockNames.contains(String(first)),
           line.range(of: #"^\p{L}+ \d+(?:\.\d+)*\.?(?: \([^()]{2,60}\))?$"#, options: .regularExpression) != nil { return true }
        guard let last = line.last, !".!?:;,\"”)]".contains(last) else { return false }
        let words = line.split(separator: " ", maxSplits: 20)
        if words.count <= 8 { return true }
        guard words.count <= 20 else { return false }
        return isNumbering(words[0]) || (listingWords.contains(String(words[0])) && words[1].first?.isNumber == true)
    }

    static let listingWords: Set<String> = ["Lesson", "Week", "Chapter", "Unit", "Part", "Section", "Lecture", "Kapitel", "Teil"]

    /// "9.2", "10.3", "PS.7.1", "DD.3.1": a section's number, dotted, ending in a digit.
    static func isNumbering(_ token: Substring) -> Bool {
        guard token.contains("."), token.last?.isNumber == true, token.first?.isNumber == true || token.first?.isUppercase == true else { return false }
        return token.allSatisfy { $0 == "." || $0.isNumber || $0.isUppercase }
    }

    /// A sentence a reader can take alone: a statement that does not open on a word pointing
    /// back, and is not furniture or a line of working.
    static func standsAlone(_ text: String) -> Bool {
        if text.trimmingCharacters(in: closingMarks).hasSuffix("?") { return false }
        if leansOnPrevious(text) || isFurniture(text) { return false }
        let lower = text.lowercased()
        // A spoken derivation points at a board: "And now over here, P2 is equal to P1."
        if deictic.contains(where: { lower.contains($0) }) { return false }
        // Broken symbols or a line of working: mostly one-character tokens, or several "=".
        if mostlySymbols(text, share: 0.3) { return false }
        if text.filter({ $0 == "=" }).count >= 2 && !statesACondition(text) || Patterns.workingEquals.matches(text) { return false }
        return !isPrompt(text) && !isFragment(text)
    }

    /// Whether more than `share` of the text's tokens are one character or have no letter
    /// ("Es gilt: 0 .. O. B. d. A. sei N = . .").
    static func mostlySymbols(_ text: String, share: Double) -> Bool {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        let short = tokens.filter { token in token.count <= 1 || !token.contains(where: \.isLetter) }.count
        return Double(short) > share * Double(tokens.count)
    }

    /// An exercise prompt tells the reader to do something ("Express your answer…", German
    /// "Beweisen Sie, dass …").
    static func isPrompt(_ text: String) -> Bool {
        let leading = text.split(maxSplits: 2, whereSeparator: { !$0.isLetter }).prefix(2)
        guard let first = leading.first else { return false }
        // A word that is also a noun or an adjective ("Complete proteins …", "Plot is …", "Label
        // propagation …") asks something only before what it acts on ("Plot the …", "Fill in …");
        // "Given the …" opens an argument as often as a problem.
        if nounImperatives.contains(String(first)) {
            guard leading.count == 2, objectWords.contains(leading[leading.index(after: leading.startIndex)].lowercased()) else { return false }
        }
        // "Sie" inside a German sentence addresses the reader: "Falls es nicht möglich ist, begründen Sie warum."
        return imperatives.contains(String(first)) && first != "Given" || leading.count == 2 && leading.last == "Sie" && first.hasSuffix("en")
            || first == "Aufgabe" || text.contains(" Sie ") || text.contains(" Sie,")
    }

    /// What is a piece of something else, not a sentence: a line that opens in lower case ("of
    /// this kind: …") or ends on a lead-in (":", ","), working with its symbols lost, a step of a numbered procedure ("2. Add
    /// the …", "Step 3") or a list item or footnote whose mark the PDF lost ("2 Es wird …";
    /// a number before a sentence's opening word, not before a noun: "12 Apostel …" counts), a table's row ("Type | Description"), formula markup left as source ("\frac{1}{2}"), "each of these …" pointing back.
    static func isFragment(_ text: String) -> Bool {
        guard let last = text.last else { return true }
        if opensInLowerCase(text) || ":,;".contains(last) { return true }
        if text.contains(" | ") || Patterns.markup.matches(text) { return true }
        if lostItsSymbols(text) { return true }
        if lostItsMarkup(text) { return true }
        if hasAStrayStop(text) { return true }
        // An inverse's exponent set apart by a PDF ("g −1 (U )", "… einem Punkt P̂ ."): the formula no longer reads;
        // "Derivative of an exponential function: where A and b are constants.": a label whose
        // formula was left out (a display line read as a heading).
        if Patterns.detachedScript.matches(text) || Patterns.lostFormula.matches(text) { return true }
        // A bracket opened and not closed, or closed and not opened: cut from a longer sentence.
        var depth = 0
        for byte in text.utf8 where byte == 0x28 || byte == 0x29 { depth += byte == 0x28 ? 1 : -1 }
        if depth != 0 { return true }
        if Patterns.listMark.matches(text) { return true }
        return Patterns.pointsBack.matches(text)
    }

    /// A full stop inside the sentence before a lower-case word, after a word no abbreviation
    /// ends: a transcript's stop in the middle of a spoken phrase ("And the k-hat direction. is
    /// pointing out of the screen."), which reads as two broken lines.
    static func hasAStrayStop(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 3 else { return false }
        for index in 2..<(bytes.count - 2) where bytes[index] == 0x2E && bytes[index + 1] == 0x20 && (0x61...0x7A).contains(bytes[index + 2]) {
            var start = index
            while start > 0, (0x61...0x7A).contains(bytes[start - 1]) || (0x41...0x5A).contains(bytes[start - 1]) { start -= 1 }
            guard index - start >= 2, start == 0 || bytes[start - 1] == 0x20 || bytes[start - 1] == 0x2D else { continue }
            let word = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
            if !SentenceSplitter.abbreviations.contains(word) { return true }
        }
        return false
    }

    /// LaTeX whose backslashes were lost on the way ("fracd θ̂dt", "dfrac 1r", "ln(fract_ftᵢ)",
    /// "beginalign"): a reader cannot read it back.
    static func lostItsMarkup(_ text: String) -> Bool {
        text.contains("frac") && ["fracd", " frac", "dfrac", "tfrac", "(frac", "=frac"].contains(where: text.contains)
            || text.contains("beginalign") || text.contains("displaystyle")
    }

    /// "pH", "mRNA" and "iPhone" open sentences; "of", "und" and "x" do not.
    static func opensInLowerCase(_ text: String) -> Bool {
        guard let firstWord = text.split(separator: " ", maxSplits: 1).first else { return false }
        return firstWord.first?.isLowercase == true && !firstWord.contains(where: \.isUppercase)
    }

    /// A line of working whose symbols were lost on the way (spoken, or a formula the page drew):
    /// a stray mark between words ("The cross term is . m1.") or a symbol for its last word
    /// ("The kinetic energy in the ground frame is 1/2 m1."); such lines were graded 1 of 5 (seed 5813).
    static func lostItsSymbols(_ text: String) -> Bool {
        // (A mark before a word, "heuristics , or", is a page's spacing, not a lost symbol: the
        // word after it must be a symbol. In the philosophy book's text 8 sentences match, most cut at "v.".)
        Patterns.lostSymbol.matches(text)
    }

    /// The checks' regular expressions, compiled once (`TextPattern`).
    enum Patterns {
        static let workingEquals = TextPattern(#"(^|\s)\d=(\s|$)"#)
        static let lostFormula = TextPattern(#"^[^:]{3,60}: (?:where|wobei|with|mit)\b"#)
        static let detachedScript = TextPattern(#"\p{L} [−-]1 \(|\(\p{L}{1,2} \)|\s\.$"#)
        static let markup = TextPattern(#"\\[A-Za-z]{2,}|\\[(\[]"#)
        static let listMark = TextPattern(#"^(\(?\d{1,2}[.)]|\d{1,2}\s+(Es|Der|Die|Das|Dies|Ein|Eine|Sei|Wir|Man|Im|Für|Vgl|The|This|See|It)\b|[a-h]\)|\((i{1,3}|iv|v|vi{0,3})\)|(Step|Schritt|Part|Teil) \d+\b|\((Part|Teil) \w{1,3}\))\s*"#)
        static let pointsBack = TextPattern(#"^(\p{L}+ ){0,2}of (these|those|them|this|that|it)\b"#, caseInsensitive: true)
        static let lostSymbol = TextPattern(#"\s[.,;]\s+(?:[b-zB-HJ-Z]\d*|[A-Za-z]{1,2}\d+)\b|\s(?:[A-Za-z]{1,2}\d+|[b-z])[.!]$"#)
        static let statement = TextPattern(#"\b(is|are) (defined|known|termed) (as|to be)\b|\b(we|one) (define|call)s?\b|\b(is|are) called\b|\bstates that\b|\blaw\b|\bprinciple\b|\btheorem\b|\bconclude\b|\bit follows\b|\bmeans that\b|\brefers to\b|\bheißt\b|\bheißen\b|\bnennt man\b|\bbesagt\b"#, caseInsensitive: true)
        static let caption = TextPattern(#"^(Figure|Fig\.|Table|Abbildung|Tabelle|Source:|Photo|Image)\s*[\dA-Z:]"#)
        static let creditLine = TextPattern(#"^(Instructors?|Lecturers?|Speakers?|Presenters?|Dozent(in)?|Vortragende[r]?):"#)
        static let fileLink = TextPattern(#"\((PDF|MP4|ZIP|DOCX?|PPTX?)( - \d+(\.\d+)? ?[KMG]B)?\)$"#)
        static let reference = TextPattern(#"^[A-Z][\p{L}'-]+, [A-Z][\p{L}.]*( [A-Z][\p{L}.]*)?\.? ?\(?\d{4}"#)
    }

    /// A sentence that defines a term or states a law or a result: what a summary should keep
    /// from a lesson before its examples and asides.
    static func statesSomething(_ text: String) -> Bool {
        Patterns.statement.matches(text)
    }

    /// Figure credits and captions, reference entries, links: text about the page, not the subject.
    static func isFurniture(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.contains("(credit") || lower.contains("credit:") || lower.contains("http://") || lower.contains("https://")
            || lower.contains("www.") || lower.contains("retrieved from") || lower.contains("doi:") || lower.contains("isbn") {
            return true
        }
        if Patterns.caption.matches(text) { return true }
        // A set of notes' header line: "Calculus I, week 5 notes.", "Study notes for the unit on …".
        if lower.hasSuffix(" notes.") && text.split(separator: " ").count <= 8 || lower.hasPrefix("study notes") || lower.hasPrefix("lecture notes") {
            return true
        }
        // A recording's credit line ("Instructor: Dr. Peter Dourmashkin") and a file's link ("Problem Set 7 (PDF)").
        if Patterns.creditLine.matches(text) || Patterns.fileLink.matches(text) { return true }
        // "Sellars, Wilfrid. 1962." and "Kant, I. (1781)" open a reference list entry.
        if Patterns.reference.matches(text) { return true }
        return false
    }

    /// Pointing words of a lecture at a board or slide.
    static let deictic = ["over here", "right here", "down here", "up here", "over there", "this guy", "this one here", "as you can see"]

    /// Verbs an exercise or a study prompt opens with, as written (capitalised).
    static let imperatives: Set<String> = [
        "Consider", "Explain", "Describe", "Discuss", "Compare", "Write", "Think", "Imagine", "Try", "Read", "Choose",
        "Identify", "List", "Calculate", "Find", "Show", "Prove", "Determine", "Evaluate", "Summarize", "Summarise",
        "Reflect", "Watch", "Visit", "Click", "Note", "Recall", "Suppose", "Let", "Look", "See", "Use", "Answer",
        "Express", "Given", "Assume", "Sketch", "Derive", "Compute", "Solve", "Give", "Draw", "Remember", "Make", "Take",
        "Verify", "Estimate", "Plot", "Label", "Differentiate", "Integrate", "Simplify", "Complete", "Fill", "Match",
    ]

    /// `imperatives` that are nouns or adjectives too, and the words a prompt acts on after them.
    static let nounImperatives: Set<String> = ["Plot", "Label", "Complete", "Fill", "Match", "Sketch", "Estimate", "Draw", "Take", "Make"]
    static let objectWords: Set<String> = [
        "the", "a", "an", "your", "this", "these", "that", "those", "each", "every", "all", "its", "their", "it", "them", "both",
        "one", "two", "how", "what", "which", "whether", "in", "out", "up",
    ]

    // MARK: Sentence ranking

    /// A title's words that name a subject, folded as a sentence's are: not its numbering, nor
    /// the words of a course's page kinds ("Worked Example", "Part II", "Demo").
    static func subjectWords(_ title: String) -> Set<String> {
        Set(WordTokenizer.words(title).map(WordTokenizer.fold).filter { word in
            word.count > 2 && !ContentWords.stopwords.contains(word) && !titleKinds.contains(word) && !word.allSatisfy(\.isNumber)
        })
    }

    static let titleKinds: Set<String> = ["worked", "example", "examples", "part", "problem", "problems", "demo", "introduction",
                                          "week", "lesson", "lecture", "chapter", "section", "review", "solution", "again"]

    /// Indices of `count` sentences (or as many as reach `words` words), by maximal marginal
    /// relevance: rank (TextRank, a paragraph's opening sentence weighted up) against the
    /// closest sentence already chosen.
    func choose(_ sentences: [Sentence], count: Int, words: Int? = nil, title: String = "") -> [Int] {
        let subject = Self.subjectWords(title)
        let vectors = Self.tfidf(sentences.map(\.words))
        var candidates = Array(sentences.indices)
        // Rank in windows until the candidates fit one window.
        while candidates.count > window {
            var winners: [Int] = []
            var start = 0
            while start < candidates.count {
                let slice = Array(candidates[start..<min(start + window, candidates.count)])
                let scores = Self.textRank(slice.map { vectors[$0] })
                let keep = max(count, slice.count / 10)
                winners += Self.order(scores).prefix(min(keep, max(slice.count / 2, 1))).map { slice[$0] }
                start += window
            }
            candidates = winners.sorted()
        }
        let ranks = Self.textRank(candidates.map { vectors[$0] })
        var scores = zip(ranks, candidates).map { rank, index in
            var score = rank
            // A text's opening states its subject: up to 1.6 times at the start, falling to 1 at
            // the end. Opener 1.3, position 0.6 and λ 0.8: the best of 13 settings (λ 0.5–1.0,
            // opener 1.0–2.0, position 0–1.5) on the book's modules (bench/summary_rouge.sh).
            if sentences[index].opensParagraph { score *= 1.3 }
            score *= 1 + 0.6 * (1 - Double(index) / Double(max(sentences.count, 1)))
            // Leaning on the sentence before reads badly alone (only met when none stands alone).
            if Self.leansOnPrevious(sentences[index].text) { score *= 0.75 }
            // A definition, a law or a result is what a lesson teaches.
            if Self.statesSomething(sentences[index].text) { score *= definitionWeight }
            // A sentence that names the topic's subject (its title's words) says what it is about.
            // (At least two thirds of its words: one of "Calvin cycle" is any sentence about a cycle.)
            if !subject.isEmpty {
                let named = Double(subject.filter { sentences[index].words.contains($0) }.count) / Double(subject.count)
                if named >= 0.66 { score *= 1 + subjectWeight * named }
            }
            return score
        }
        let top = scores.max() ?? 1
        if top > 0 { scores = scores.map { $0 / top } }
        var chosen: [Int] = []
        var open = Set(candidates.indices)
        var total = 0
        while !open.isEmpty && chosen.count < count {
            if let words, total >= words { break }
            var best: (position: Int, value: Double)?
            for position in open.sorted() {
                let index = candidates[position]
                let closest = chosen.map { Self.cosine(vectors[$0], vectors[index]) }.max() ?? 0
                let value = lambda * scores[position] - (1 - lambda) * closest
                if best == nil || value > best!.value { best = (position, value) }
            }
            guard let best else { break }
            open.remove(best.position)
            chosen.append(candidates[best.position])
            total += sentences[candidates[best.position]].wordCount
        }
        return chosen
    }

    static let closingMarks = CharacterSet(charactersIn: "\"'”’)]» ")

    static let anaphora: Set<String> = ["it", "its", "they", "their", "them", "this", "these", "those", "that", "he", "she", "his", "her",
                                        "such", "also", "and", "but", "so", "or", "however", "thus", "therefore", "hence", "moreover",
                                        "furthermore", "instead", "yet", "then", "here", "now", "still", "likewise", "similarly", "otherwise",
                                        "finally", "again", "latter", "former", "others", "today",
                                        // A relative clause cut from its sentence ("Which means that …", "Namely, systems in which …").
                                        "which", "namely", "plus",
                                        // German notes: "Dann ist …", "Also gilt …", "Sei X …" (a proof's step or setting).
                                        "dann", "somit", "daher", "damit", "dies", "diese", "dieser", "dieses", "deshalb",
                                        "folglich", "hier", "sei", "seien", "insbesondere", "ebenso", "analog", "nun", "dabei"]

    /// Openings of a proof's step or setting ("Dann ist g ◦ f : X → Z stetig.", "Let Δu = …"): a
    /// short one is no summary sentence even where the text has few others (a longer one says
    /// what it concludes from: "Then Δy/Δx = (Δy/Δu)(Δu/Δx) whenever Δu is not zero, and …").
    static let proofSteps: Set<String> = ["dann", "sei", "seien", "somit", "folglich", "daher", "then", "let", "hence", "thus"]

    static func leansOnPrevious(_ sentence: String) -> Bool {
        let words = sentence.split(maxSplits: 4, omittingEmptySubsequences: true, whereSeparator: { !$0.isLetter }).prefix(4).map { $0.lowercased() }
        guard let first = words.first else { return false }
        if anaphora.contains(first) { return true }
        // "What that tells us is …", "What this means is …": about what was just said.
        if first == "what", words.count > 1, ["this", "that", "these", "those"].contains(words[1]) { return true }
        // "First, it made texts cheaper": a step of a list the sentence before opened, about what it named.
        if ordinals.contains(first), words.count > 1, anaphora.contains(words[1]), sentence.dropFirst(first.count).first == "," { return true }
        // "Most are harmless", "Some of them …": a share of something named before ("Many of the
        // early philosophers …" names what it is a share of).
        if words.count > 1, quantifiers.contains(first), quantified.contains(words[1]) {
            if words[1] != "of" { return true }
            if words.count > 2, ["them", "these", "those"].contains(words[2]) { return true }
        }
        // "Critical thinking, however, is …", "Say, for example, you …": a connective set off
        // inside the opening clause continues the sentence before as one at its start does.
        if let comma = sentence.firstIndex(of: ","), sentence.distance(from: sentence.startIndex, to: comma) <= 40 {
            let rest = sentence[sentence.index(after: comma)...].lowercased()
            if insetConnectives.contains(where: { rest.hasPrefix(" " + $0 + ",") }) { return true }
        }
        // "As this titleformat also uses …", "Since these …": a clause about what was just named.
        if words.count > 1, subordinators.contains(first), ["this", "these", "that", "those", "such"].contains(words[1]) { return true }
        // "Combining the two parts …", "Multiplying the three factors gives …": parts named before.
        if words.count > 2, first.hasSuffix("ing"), words[1] == "the", counted.contains(words[2]) { return true }
        let opening = words.joined(separator: " ")
        return connectives.contains { opening == $0 || opening.hasPrefix($0 + " ") }
    }

    static let insetConnectives = ["however", "for example", "for instance", "therefore", "thus", "in turn", "instead", "then", "too",
                                   "in contrast", "by contrast", "in other words", "as a result", "in fact", "of course", "moreover"]
    static let subordinators: Set<String> = ["as", "since", "because", "although", "though", "while", "whereas", "if", "when", "unlike", "like"]
    static let counted: Set<String> = ["two", "three", "four", "five", "both", "above", "previous", "former", "latter", "same"]

    /// Openings of several words that continue the sentence before or point back at it.
    static let connectives = ["in particular", "in addition", "as a result", "for this reason", "in this way", "on the other hand",
                              "at the same time", "in other words", "by contrast", "in contrast", "even so", "in turn", "for example",
                              "for instance", "in this case", "in that case", "to this end", "as such", "after all", "in fact",
                              "of course", "as before", "just as before", "as we saw", "as we have seen", "as mentioned", "as shown",
                              "with that", "with this"]

    /// Steps of an enumeration when a comma follows them.
    static let ordinals: Set<String> = ["first", "second", "third", "fourth", "firstly", "secondly", "thirdly", "lastly", "last"]
    /// Words for a share of something ("most", "some") and what makes them the subject ("are",
    /// "of them").
    static let quantifiers: Set<String> = ["most", "some", "many", "both", "all", "several", "few", "each", "neither", "either", "none"]
    static let quantified: Set<String> = ["are", "is", "were", "was", "have", "has", "do", "does", "can", "will", "would", "of"]

    /// Positions by descending score, earlier first on ties.
    static func order(_ scores: [Double]) -> [Int] {
        scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
    }

    typealias SparseVector = [(term: Int, weight: Double)]

    /// L2-normalised TF-IDF vectors (terms sorted by id), IDF over these sentences.
    static func tfidf(_ documents: [[String]]) -> [SparseVector] {
        var ids: [String: Int] = [:]
        var frequency: [Int: Int] = [:]
        let counted: [[Int: Int]] = documents.map { words in
            var counts: [Int: Int] = [:]
            for word in words {
                let id = ids[word] ?? { let next = ids.count; ids[word] = next; return next }()
                counts[id, default: 0] += 1
            }
            for id in counts.keys { frequency[id, default: 0] += 1 }
            return counts
        }
        let n = Double(documents.count)
        return counted.map { counts in
            var vector = counts.map { (term: $0.key, weight: (1 + log(Double($0.value))) * (log((1 + n) / (1 + Double(frequency[$0.key] ?? 0))) + 1)) }
            vector.sort { $0.term < $1.term }
            let norm = vector.reduce(0) { $0 + $1.weight * $1.weight }.squareRoot()
            return norm > 0 ? vector.map { ($0.term, $0.weight / norm) } : vector
        }
    }

    static func cosine(_ a: SparseVector, _ b: SparseVector) -> Double {
        var i = 0, j = 0, sum = 0.0
        while i < a.count && j < b.count {
            if a[i].term == b[j].term {
                sum += a[i].weight * b[j].weight
                i += 1
                j += 1
            } else if a[i].term < b[j].term {
                i += 1
            } else {
                j += 1
            }
        }
        return sum
    }

    /// PageRank (damping 0.85) over the weighted similarity graph; a fixed iteration order
    /// and count keep it deterministic.
    static func textRank(_ vectors: [SparseVector]) -> [Double] {
        let n = vectors.count
        guard n > 1 else { return [Double](repeating: 1, count: n) }
        var weights = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n {
            for j in (i + 1)..<n {
                let similarity = cosine(vectors[i], vectors[j])
                weights[i][j] = similarity
                weights[j][i] = similarity
            }
        }
        let outSums = weights.map { $0.reduce(0, +) }
        var scores = [Double](repeating: 1.0 / Double(n), count: n)
        let damping = 0.85
        for _ in 0..<60 {
            var next = [Double](repeating: (1 - damping) / Double(n), count: n)
            for j in 0..<n where outSums[j] > 0 {
                let share = damping * scores[j] / outSums[j]
                for i in 0..<n where weights[j][i] > 0 { next[i] += share * weights[j][i] }
            }
            // Sentences with no neighbour pass their rank on evenly (PageRank's dangling nodes).
            let dangling = (0..<n).filter { outSums[$0] == 0 }.reduce(0) { $0 + scores[$1] } * damping / Double(n)
            var change = 0.0
            for i in 0..<n {
                next[i] += dangling
                change += abs(next[i] - scores[i])
            }
            scores = next
            if change < 1e-9 { break }
        }
        return scores
    }

    // MARK: Key phrases

    /// TextRank over content words that co-occur within two words of each other; adjacent
    /// top-ranked words join into phrases ("light-dependent reactions"), ranked by their words'
    /// mean score, shown as first written.
    static func keyPhrases(_ sentences: [Sentence], limit: Int) -> [String] {
        var ids: [String: Int] = [:]
        var names: [String] = []
        func id(_ word: String) -> Int {
            if let known = ids[word] { return known }
            ids[word] = names.count
            names.append(word)
            return names.count - 1
        }
        var edges: [Int: [Int: Double]] = [:]
        for sentence in sentences {
            let words = sentence.words.map(id)
            for (i, a) in words.enumerated() {
                for b in words[(i + 1)..<min(i + 3, words.count)] where a != b {
                    edges[a, default: [:]][b, default: 0] += 1
                    edges[b, default: [:]][a, default: 0] += 1
                }
            }
        }
        let n = names.count
        guard n > 0 else { return [] }
        // Adjacency in a fixed order, normalised once.
        let adjacency: [[(Int, Double)]] = (0..<n).map { j in
            guard let neighbours = edges[j] else { return [] }
            let total = neighbours.values.reduce(0, +)
            return neighbours.sorted { $0.key < $1.key }.map { ($0.key, $0.value / total) }
        }
        var scores = [Double](repeating: 1.0 / Double(n), count: n)
        for _ in 0..<50 {
            var next = [Double](repeating: 0.15 / Double(n), count: n)
            for j in 0..<n {
                let share = 0.85 * scores[j]
                for (i, w) in adjacency[j] { next[i] += share * w }
            }
            scores = next
        }
        let top = Set(order(scores).prefix(max(limit * 2, n / 4)))
        // Phrases: runs of top words in the original sentences (up to three words).
        var foldCache: [String: String] = [:]
        func fold(_ word: String) -> String {
            if let known = foldCache[word] { return known }
            let result = WordTokenizer.fold(word)
            foldCache[word] = result
            return result
        }
        var phraseScore: [String: Double] = [:]
        var shown: [String: String] = [:]
        var firstSeen: [String: Int] = [:]
        var occurrences: [String: Int] = [:]
        var seen = 0
        for sentence in sentences {
            let surface = ContentWords.surface(sentence.text)
            var run: [String] = []
            func close() {
                defer { run = [] }
                guard !run.isEmpty else { return }
                let key = run.map(fold).joined(separator: " ")
                let mean = run.map { scores[ids[fold($0)] ?? 0] }.reduce(0, +) / Double(run.count)
                phraseScore[key] = max(phraseScore[key] ?? 0, mean * (1 + 0.3 * Double(run.count - 1)))
                occurrences[key, default: 0] += 1
                if shown[key] == nil {
                    shown[key] = run.joined(separator: " ")
                    firstSeen[key] = seen
                    seen += 1
                }
            }
            for word in surface {
                let folded = fold(word)
                if let wordId = ids[folded], top.contains(wordId), folded.count > 2, !folded.hasSuffix("ly"), run.count < 3 {
                    run.append(word)
                } else {
                    close()
                }
            }
            close()
        }
        // A phrase that recurs is more likely a term of the subject than a chance pairing.
        for (key, score) in phraseScore { phraseScore[key] = score * (1 + log(Double(occurrences[key] ?? 1))) }
        var result: [String] = []
        let ranked = phraseScore.keys.sorted {
            phraseScore[$0]! != phraseScore[$1]! ? phraseScore[$0]! > phraseScore[$1]! : firstSeen[$0]! < firstSeen[$1]!
        }
        for key in ranked where result.count < limit {
            // Skip a phrase that is part of (or contains) one already chosen.
            if result.contains(where: { $0.contains(key) || key.contains($0) }) { continue }
            result.append(key)
        }
        return result.map { shown[$0] ?? $0 }
    }

}
