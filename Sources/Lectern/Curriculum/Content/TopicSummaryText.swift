import Foundation

/// The text a topic's summary is made from (by the offline extractive method or a model): its
/// passages of prose and speech, not its lists of objectives, glossary entries or exercises,
/// nor captions or a recording's credit line; formulas written as a reader sees them (an OCW
/// page's `\(\displaystyle m\)` as "m", a PDF's broken "x 7→ [x]" as "x ↦ [x]"), a problem's
/// statement left out beside other text, and a lecture's speech as what it teaches, without
/// fillers, false starts, remarks to the audience, the lecturer's plan and working at the board,
/// or derivations read aloud (`SpokenSentences.Reading`).
enum TopicSummaryText {
    static func paragraphs(of passages: [Passage]) -> [String] {
        var chosen = passages.filter { ![.objective, .glossary, .exercise, .caption].contains($0.kind) }
        if chosen.isEmpty { chosen = passages }
        // A problem's statement (its givens and what to find: "Block 1 of mass 3m is sliding …
        // Determine the initial speed") says what is asked, not what is taught: left out where
        // other text is there to summarise.
        let unasked = chosen.filter { $0.kind == .transcript || !asks($0.text) }
        if !unasked.isEmpty { chosen = unasked }
        let texts = chosen.map { MathText.readableProse(withoutCredits($0.text)) }
        // Sentences of the lecture that pass (a topic's other text does not count).
        func spoken(_ reading: SpokenSentences.Reading) -> ([String], Int) {
            var count = 0
            let paragraphs = zip(chosen, texts).map { passage, text -> String in
                guard passage.kind == .transcript else { return text }
                let written = SpokenSentences.written(text, reading: reading)
                if !written.isEmpty { count += SentenceSplitter.split(written).count }
                return written
            }.filter { !$0.isEmpty }
            return (paragraphs, count)
        }
        var (readable, count) = spoken(.taught)
        // A lecture is read by what it teaches where a sentence of it says that; else by its
        // statements where three do; else leniently (its whole sentences, fillers, openers and
        // derivations out): one sentence says too little of it.
        if chosen.contains(where: { $0.kind == .transcript }), count < 1 {
            let statements = spoken(.statements)
            let whole = statements.1 < 3 ? spoken(.spoken) : statements
            readable = whole.1 > 0 ? whole.0 : statements.0
        }
        // A lecture none of whose sentences reads as a statement is summarised as spoken (an
        // empty summary tells the learner less).
        return readable.isEmpty ? texts : readable
    }

    /// `text` has a sentence that sets the reader a task ("Find …", "Determine …", "Express your
    /// answer …"): one pass over its words, a word counted where a sentence starts.
    static func asks(_ text: String) -> Bool {
        var starts = true
        for word in text.split(whereSeparator: \.isWhitespace) {
            if starts, let first = word.split(whereSeparator: { !$0.isLetter }).first, problemVerbs.contains(String(first)) {
                return true
            }
            starts = word.last.map { ".?!:".contains($0) } ?? false
        }
        return false
    }

    /// What a problem asks for (not "Consider" or "Imagine", which a text's argument says too).
    static let problemVerbs: Set<String> = [
        "Find", "Determine", "Express", "Calculate", "Compute", "Show", "Prove", "Derive", "Solve", "Estimate", "Evaluate", "Sketch",
        "Beweisen", "Zeigen", "Bestimmen", "Berechnen",
    ]

    /// `text` without the lines that credit a recording ("Instructor: Dr. Peter Dourmashkin",
    /// which OCW puts before every lecture's transcript).
    static func withoutCredits(_ text: String) -> String {
        guard text.contains(":") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.range(of: #"^\s*(Instructors?|Lecturers?|Speakers?|Presenters?|Dozent(in)?):[^\n]{0,80}$"#, options: .regularExpression) == nil }
            .joined(separator: "\n")
    }

    /// The offline summary: notes written as definitions and theorems by what they define and
    /// state (`StructuralSummary`), a page that only lists things (an OCW problem set's
    /// problems) by its list, other text by the extractive method; empty for text with no
    /// sentence at all.
    static func offline(_ input: SummaryInput, passages: [Passage]) -> Summary {
        if let structural = StructuralSummary.summary(of: passages) ?? listing(passages) { return Summary(text: structural, keyPoints: []) }
        return (try? ExtractiveSummarizer().summarize(input)) ?? Summary(text: "", keyPoints: [])
    }

    /// A short page that introduces a list and lists ("Problem Set 7 contains the following
    /// problems:" and the problems' titles) as one sentence: the lead-in and its items, without
    /// the file links after them. Nil for a page with prose beside its list.
    static func listing(_ passages: [Passage]) -> String? {
        let lines = passages.filter { $0.kind != .transcript }.flatMap { $0.text.split(separator: "\n") }
            .map { TextCleanup.collapseWhitespace(String($0)) }.filter { !$0.isEmpty }
        guard let lead = lines.firstIndex(where: { $0.hasSuffix(":") && $0.split(separator: " ").count >= 3 }) else { return nil }
        var items: [String] = []
        for line in lines[(lead + 1)...] {
            let words = line.split(separator: " ").count
            guard words <= 12, !line.hasSuffix("."), !line.hasSuffix(":") else { break }
            if ExtractiveSummarizer.isFurniture(line) { continue }
            if !items.contains(line) { items.append(line) }
        }
        let prose = lines.filter { !items.contains($0) && $0 != lines[lead] && !ExtractiveSummarizer.isFurniture($0) }
        guard items.count >= 2, prose.reduce(0, { $0 + $1.split(separator: " ").count }) < 30 else { return nil }
        return lines[lead] + " " + items.joined(separator: "; ") + "."
    }
}
