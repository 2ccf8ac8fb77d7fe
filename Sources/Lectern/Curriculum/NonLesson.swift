import Foundation

/// Why a section of a source is no lesson, so that it is no topic: its heading names work set or
/// answers, terms or questions collected (a problem set, exercises, solutions, a glossary,
/// "Questions?"), it is a stub (a demonstration page that only names its instructor), or it only
/// lists (a problem set's titles and its PDF, a list of files); and a unit's summary section that
/// only repeats the unit. Decided from the heading and cheap counts: a byte scan of the words that
/// stops at its limit and, for a short text, its lines; a summary's words only under a summary's
/// heading; never a sentence split or a regular expression.
enum NonLesson: Equatable, Sendable {
    /// Practice or apparatus, by its heading: "Problem Set 8", "Übungsaufgaben", "Key Terms".
    case practice
    /// Fewer than `stubWords` words.
    case stub
    /// A short text of title lines that names files or links, or follows a lead-in to work set
    /// ("… contains the following problems:").
    case list

    /// Headings (as `CurriculumOutline.normalised` gives them: lower case, numbering in front and
    /// behind dropped) of sections that set work or collect answers, terms or questions.
    static let headings: Set<String> = [
        "problem set", "problem sets", "problems", "exercise", "exercises", "practice", "practice problems",
        "practice questions", "homework", "assignment", "review questions", "questions", "any questions",
        "discussion questions", "check your understanding", "quiz", "solution", "solutions", "answers", "answer key",
        "key terms", "glossary", "vocabulary", "see also", "external links",
        "übung", "übungen", "übungsaufgaben", "übungsblatt", "aufgabe", "aufgaben", "lösung", "lösungen",
        "musterlösung", "musterlösungen", "fragen", "kontrollfragen", "wiederholungsfragen", "verständnisfragen",
        "glossar", "schlüsselbegriffe", "siehe auch", "weblinks", "einzelnachweise",
    ]
    /// A heading's first word that, followed by a number, names one item of work: "Aufgabe 7
    /// (Zusammenhang)", "Exercise 2: …".
    static let items: Set<Substring> = ["problem", "exercise", "aufgabe", "übung", "übungsaufgabe", "übungsblatt", "quiz"]

    /// Words below which a section is a stub: OCW's empty demonstration pages hold three
    /// ("Instructor: Caleb Bonyun"); the shortest lessons of the six graded curricula hold 31.
    static let stubWords = 25
    /// Words below which a unit's own text (before its first section) opens the unit's first
    /// topic rather than being one: a chapter's lead-in ("Definition 67 Sei f … Kurve.").
    static let leadWords = 50
    /// Words above which a text is not read for a list.
    static let listWords = 150

    static func of(name: String, passages: [Passage]) -> NonLesson? {
        if isPractice(name) { return .practice }
        let words = words(passages, upTo: listWords)
        if words < stubWords { return .stub }
        if words < listWords, isList(passages) { return .list }
        return nil
    }

    static func isPractice(_ name: String) -> Bool {
        let normalised = CurriculumOutline.normalised(name)
        if headings.contains(normalised) { return true }
        let words = normalised.split(separator: " ", maxSplits: 2)
        return words.count >= 2 && items.contains(words[0]) && words[1].first?.isNumber == true
    }

    /// Whitespace-separated words holding a letter or digit (bytes of other scripts count as
    /// letters), counted until `limit`.
    static func words(_ passages: [Passage], upTo limit: Int) -> Int {
        var count = 0
        for passage in passages {
            var counted = false
            for byte in passage.text.utf8 {
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                    counted = false
                } else if !counted, byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) {
                    counted = true
                    count += 1
                    if count >= limit { return count }
                }
            }
        }
        return count
    }

    /// Whether a short text only lists: at least four lines, four in five of them titles (eight
    /// words or fewer, not ending a sentence), and either a line naming a file or a link ("Problem
    /// Set 8 (PDF)", "notes.zip", "https://…") or a first line that leads in to work set ("…
    /// contains the following problems:"). Any other lead-in ("These are the symptoms:") opens
    /// notes in bullets, which are a lesson.
    static func isList(_ passages: [Passage]) -> Bool {
        let lines = passages.flatMap { $0.text.split(separator: "\n") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.count >= 4 else { return false }
        let titles = lines.filter { line in
            line.split(separator: " ").count <= 8 && !(line.last.map { ".!?".contains($0) } ?? false)
        }
        guard titles.count * 5 >= lines.count * 4 else { return false }
        return lines.first.map(leadsToWork) == true || lines.contains(where: namesFile)
    }

    /// Words of a lead-in to work set, in English and German.
    static let workWords = ["problem", "exercise", "question", "aufgabe", "übung", "frage"]

    /// Whether `line` ends in ":" and names the work it leads to: "Problem Set 8 contains the
    /// following problems:", "Answer these questions:", "Aufgaben zum Kapitel:".
    static func leadsToWork(_ line: String) -> Bool {
        guard line.hasSuffix(":") else { return false }
        let lower = line.lowercased()
        return workWords.contains { lower.contains($0) }
    }

    static let fileMarks = ["(pdf)", "(zip)", "(mp4)", "(mp3)", "(ppt)", "(pptx)", "(docx)", ".pdf", ".zip", ".pptx", ".docx", ".ipynb", ".mp4"]

    static func namesFile(_ line: String) -> Bool {
        let lower = line.lowercased()
        return fileMarks.contains { lower.hasSuffix($0) } || lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("www.")
    }

    /// Whether a stub holds a sentence (a lead-in that defines something), so that it joins the
    /// topic beside it instead of going.
    static func saysSomething(_ passages: [Passage]) -> Bool {
        words(passages, upTo: 6) >= 6 && passages.contains { $0.text.contains { ".!?".contains($0) } }
    }

    /// `sections` (a unit's, in reading order) without the ones that are no lesson: practice,
    /// lists and stubs go; a stub that says something, or a unit's own lead-in of fewer than
    /// `leadWords` words, joins the section after it (the one before, when it is the last). A unit
    /// none of whose sections is a lesson alone (frames of a few bullets each) keeps what is not
    /// practice as one section, when that holds `stubWords` words or more.
    static func lessons(_ sections: [(name: String, passages: [Passage])]) -> [(name: String, passages: [Passage])] {
        var kept: [(name: String, passages: [Passage])] = []
        var pending: [Passage] = []
        for section in sections {
            let verdict = of(name: section.name, passages: section.passages)
            let lead = section.name.isEmpty && kept.isEmpty && verdict != .practice
                && words(section.passages, upTo: leadWords) < leadWords
            if lead || (verdict == .stub && saysSomething(section.passages)) {
                pending += section.passages
            } else if verdict == nil {
                kept.append((section.name, pending + section.passages))
                pending = []
            }
        }
        if !pending.isEmpty, !kept.isEmpty {
            kept[kept.count - 1].passages += pending
        } else if kept.isEmpty {
            let rest = sections.filter { !isPractice($0.name) }.flatMap(\.passages)
            if words(rest, upTo: stubWords) >= stubWords { kept = [("", rest)] }
        }
        return withoutRepeatedSummaries(kept)
    }

    /// Share of a summary section's words (four letters or more, each once) found in its unit's
    /// other lessons at or above which it only repeats them.
    static let repeatShare = 0.9

    /// `sections` without a section headed as a summary ("Summary", "Conclusion",
    /// "Zusammenfassung": AuthorSummary's headings) that only repeats its unit's other lessons, at
    /// least `repeatShare` of its words theirs. A summary inside a topic (an OpenStax module's,
    /// the topic's author's summary) is no section here and stays.
    static func withoutRepeatedSummaries(_ sections: [(name: String, passages: [Passage])]) -> [(name: String, passages: [Passage])] {
        let summaries = sections.indices.filter { !sections[$0].name.isEmpty && AuthorSummary.headings.contains(CurriculumOutline.normalised(sections[$0].name)) }
        guard !summaries.isEmpty, sections.count > summaries.count else { return sections }
        let others = contentWords(sections.indices.filter { !summaries.contains($0) }.flatMap { sections[$0].passages })
        let repeating = summaries.filter { index in
            let own = contentWords(sections[index].passages)
            return !own.isEmpty && Double(own.filter(others.contains).count) >= repeatShare * Double(own.count)
        }
        return sections.indices.filter { !repeating.contains($0) }.map { sections[$0] }
    }

    static func contentWords(_ passages: [Passage]) -> Set<String> {
        Set(passages.flatMap { WordTokenizer.words($0.text) }.filter { $0.count >= 4 && $0.allSatisfy(\.isLetter) })
    }
}
