import Foundation

/// A topic before enrichment: where it sits and which passages it holds.
struct TopicDraft: Sendable {
    var title: String
    /// What names it for its stable id: the document URI and its section path (plus a
    /// segment number for a stretch found by content).
    var identity: String
    var headings: [String]
    var passages: [Passage]
    /// The title came from key phrases (a stretch of a transcript), not the source.
    var titleFromContent = false
}

/// A unit before enrichment.
struct UnitDraft: Sendable {
    var title: String
    var topics: [TopicDraft]
}

/// The tree a document's own structure gives: the section paths of its passages read as
/// chapters and sections, front and back matter left out, and a document without usable
/// structure cut where its subject shifts.
enum CurriculumOutline {
    /// Top-level sections that are not teaching: a book's front and back matter, a course
    /// site's administrative pages (normalised: lower case, leading numbering dropped).
    static let matter: Set<String> = [
        "preface", "about openstax", "about the authors", "reviewers", "index", "references", "bibliography",
        "acknowledgments", "acknowledgements", "contents", "table of contents", "inhaltsverzeichnis", "copyright", "credits",
        "answer key", "license", "licence", "course home", "course description", "syllabus", "calendar", "readings",
        "assignments", "exams", "resource index", "download course materials", "instructor insights", "related resources",
        "course info", "course meeting times", "literatur", "literaturverzeichnis", "index of symbols", "symbolverzeichnis",
        "stichwortverzeichnis", "abkürzungsverzeichnis", "bildquellen", "image credits", "image sources", "solutions",
        "answers to exercises", "lösungen der übungsaufgaben", "vorwort",
    ]

    /// Sections inside a topic that list sources rather than teach: their passages are left out.
    static let apparatus: Set<String> = [
        "references", "bibliography", "works cited", "further reading", "suggested reading", "suggested readings",
        "notes and references", "footnotes",
    ]

    /// Section titles that say nothing alone: "Introduction" of a chapter becomes
    /// "Introduction: <chapter>".
    static let generic: Set<String> = ["introduction", "overview", "summary", "conclusion", "review", "preliminaries"]

    static func normalised(_ title: String) -> String {
        // A Wikipedia page's headings end in their edit link, "References[edit]", where no HTML
        // reader dropped it: the page converted to Markdown, or stored by a reader before it did.
        var words = (title.hasSuffix("[edit]") ? String(title.dropLast(6)) : title).lowercased().split(separator: " ")
        // "1", "1.2", "A.", "Chapter 3" in front of the title.
        while let first = words.first, words.count > 1,
              first.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" }) || first == "chapter" || first == "kapitel" {
            words.removeFirst()
        }
        // "References I", "References II", "Bibliography (cont.)": a continued section is the same matter.
        while let last = words.last, words.count > 1, continuations.contains(last) || last.allSatisfy(\.isNumber) {
            words.removeLast()
        }
        return words.joined(separator: " ").trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
    }

    /// What follows a section title continued on another page or slide.
    static let continuations: Set<Substring> = ["i", "ii", "iii", "iv", "v", "vi", "(cont.)", "cont.", "(cont'd)", "(continued)", "continued"]

    /// The title without its leading number: "1 Introduction to Philosophy" → "Introduction to Philosophy".
    static func bare(_ title: String) -> String {
        var words = title.split(separator: " ", omittingEmptySubsequences: true)
        while let first = words.first, words.count > 1, first.allSatisfy({ $0.isNumber || $0 == "." }) { words.removeFirst() }
        return words.joined(separator: " ")
    }

    /// The depth at which the passages' section paths first differ (a note under one title
    /// divides at its second level).
    static func divisionDepth(_ passages: [Passage]) -> Int {
        var depth = 0
        while true {
            let names = Set(passages.map { $0.sectionPath.count > depth ? $0.sectionPath[depth] : "" })
            if names.count == 1, let only = names.first, !only.isEmpty { depth += 1 } else { return depth }
        }
    }

    /// Consecutive runs of passages with the same name at `depth` ("" for passages above it:
    /// before the first section they are a group of their own, after it they belong to the
    /// section they follow, as a figure or a page's stray line does).
    static func groups(_ passages: [Passage], depth: Int) -> [(name: String, passages: [Passage])] {
        var result: [(name: String, passages: [Passage])] = []
        for passage in passages {
            let name = passage.sectionPath.count > depth ? passage.sectionPath[depth] : ""
            if let last = result.last, last.name == name || name.isEmpty {
                result[result.count - 1].passages.append(passage)
            } else if let index = result.firstIndex(where: { $0.name == name }) {
                // A section that recurs later (rare) joins its first appearance.
                result[index].passages.append(passage)
            } else {
                result.append((name, [passage]))
            }
        }
        return result
    }

    /// Share of an overview page's words that name its unit's sections: above it, the page is an
    /// index of the unit (an OCW week's "Week 1: Kinematics" page lists its lessons), no lesson.
    static let overviewShare = 0.6

    /// Whether `passages` (a unit's text before its first section) mostly list `titles` (the
    /// unit's and its sections' titles): their words of three or more letters, at least
    /// `overviewShare` of them in the titles.
    static func isOverview(_ passages: [Passage], titles: [String]) -> Bool {
        let named = Set(titles.flatMap { WordTokenizer.words($0).map { $0.lowercased() } })
        let words = passages.flatMap { WordTokenizer.words($0.text) }.map { $0.lowercased() }.filter { $0.count >= 3 && $0.allSatisfy(\.isLetter) }
        guard !words.isEmpty else { return false }
        return Double(words.filter { named.contains($0) }.count) >= overviewShare * Double(words.count)
    }

    /// A slide deck's frames, one page each and a few words each: most teach nothing alone (a
    /// table of cities, a figure's caption, a list of font styles were graded no lessons), so a
    /// deck's section is its topic, its frames in order.
    static let frameWords = 80
    /// A deck's section with fewer words than this (a closing "Summary" frame that gives the
    /// source's address and licence) is no lesson.
    static let deckSectionWords = 40
    /// Frames that close a talk rather than teach.
    static let closingFrames: Set<String> = ["questions", "any questions", "thank you", "thanks", "the end", "discussion"]

    /// Whether `chapters` (sections of frames) are a slide deck's: at least six frames, seven in
    /// ten on one page each, and the middle frame under `frameWords` words.
    static func isDeck(_ chapters: [(name: String, passages: [Passage])], depth: Int) -> Bool {
        let frames = chapters.flatMap { groups($0.passages, depth: depth + 1).filter { !$0.name.isEmpty } }
        guard frames.count >= 6 else { return false }
        let onePage = frames.filter { frame in
            frame.passages.allSatisfy { $0.pageStart != nil && ($0.pageEnd ?? $0.pageStart) == $0.pageStart }
                && Set(frame.passages.compactMap(\.pageStart)).count == 1
        }
        let words = frames.map { $0.passages.reduce(0) { $0 + WordTokenizer.words($1.text).count } }.sorted()
        return onePage.count * 10 >= frames.count * 7 && words[words.count / 2] < frameWords
    }

    /// A deck as one unit of its sections, each a topic of its frames (closing and reference
    /// frames left out); a section of fewer than `deckSectionWords` words goes.
    static func deckUnits(document: StoredDocument, chapters: [(name: String, passages: [Passage])], depth: Int) -> [UnitDraft] {
        let topics = chapters.compactMap { chapter -> TopicDraft? in
            let frames = groups(chapter.passages, depth: depth + 1).filter {
                !matter.contains(normalised($0.name)) && !apparatus.contains(normalised($0.name)) && !closingFrames.contains(normalised($0.name))
                    && !NonLesson.isPractice($0.name)
            }
            let passages = frames.flatMap(\.passages)
            guard passages.reduce(0, { $0 + WordTokenizer.words($1.text).count }) >= deckSectionWords,
                  !showsMoreThanTeaches(frames.map(\.passages)) else { return nil }
            let title = generic.contains(normalised(chapter.name)) ? "\(chapter.name): \(bare(document.title))" : chapter.name
            return TopicDraft(title: title, identity: document.uri + "|" + chapter.name, headings: headings(passages, below: depth), passages: passages)
        }
        return topics.isEmpty ? [] : [UnitDraft(title: document.title, topics: topics)]
    }

    /// A deck's section most of whose frames hold no sentence: a theme's demonstration of its
    /// elements (a list of font styles, a table of cities, a plot, a quote), where two frames in
    /// eleven said something and the section was graded no lesson (seed 5813).
    static let teachingFrameShare = 1.0 / 3.0

    static func showsMoreThanTeaches(_ frames: [[Passage]]) -> Bool {
        let teaching = frames.filter { passages in
            passages.contains { passage in
                // Six words of letters, not a table's row ("Default | Default Block content.") nor a
                // list's items run together ("Items • Milk • Eggs • Potatos Enumerations 1.").
                SentenceSplitter.split(TextCleanup.collapseWhitespace(passage.text)).contains { sentence in
                    sentence.text.split(separator: " ").filter { $0.contains(where: \.isLetter) }.count >= 6
                        && sentence.text.last.map { ".!?".contains($0) } == true && !sentence.text.contains("|") && !sentence.text.contains("•")
                        && !ExtractiveSummarizer.isFurniture(sentence.text)
                }
            }
        }
        return Double(teaching.count) < teachingFrameShare * Double(frames.count)
    }

    /// The teaching passages of a document: apparatus sections (references) left out.
    static func teaching(_ passages: [Passage]) -> [Passage] {
        passages.filter { passage in !passage.sectionPath.contains { apparatus.contains(normalised($0)) } }
    }

    /// The units a single source gives: chapters as units and their sections as topics when it
    /// divides in two levels (an OpenStax book, an OCW course of weekly pages of lectures),
    /// else one unit of its sections.
    static func units(document: StoredDocument, passages all: [Passage], vectors: [Int64: [Float]], alone: Bool) -> [UnitDraft] {
        let passages = teaching(all)
        let depth = divisionDepth(passages)
        let top = groups(passages, depth: depth).filter { !matter.contains(normalised($0.name)) }
        // Chapters and their sections; what comes before the first chapter (a title page, a
        // foreword) is front matter then.
        var chapters = top.filter { !$0.name.isEmpty && !NonLesson.isPractice($0.name) }
        // A title slide or page with an outline entry of its own (the talk's name, its author and
        // date) is no chapter: a first one of a few words with no sections goes.
        if chapters.count > 2, let first = chapters.first, first.passages.reduce(0, { $0 + $1.tokenCount }) < 50,
           groups(first.passages, depth: depth + 1).allSatisfy({ $0.name.isEmpty }) {
            chapters.removeFirst()
        }
        if alone, chapters.count >= 2 {
            let divided = chapters.filter { group in
                groups(group.passages, depth: depth + 1).filter { !$0.name.isEmpty }.count >= 2
            }
            if divided.count * 2 >= chapters.count {
                if isDeck(chapters, depth: depth) { return deckUnits(document: document, chapters: chapters, depth: depth) }
                return chapters.map { group in
                    let unitTitle = group.name.isEmpty ? document.title : group.name
                    var sections = groups(group.passages, depth: depth + 1).filter { !matter.contains(normalised($0.name)) }
                    // A page that lists the unit's sections (an OCW week's overview, before its
                    // lessons or repeated under a "Lesson 33" stub) is the unit's introduction: it
                    // opens the unit's first topic instead of being a topic.
                    var overview: [Passage] = []
                    if sections.count > 1 {
                        let names = [unitTitle] + sections.map(\.name)
                        let lists = sections.indices.filter { isOverview(sections[$0].passages, titles: names) }
                        if lists.count < sections.count {
                            overview = lists.flatMap { sections[$0].passages }
                            for index in lists.reversed() { sections.remove(at: index) }
                        }
                    }
                    // Problem sets, exercises, stubs and lists of files are no lessons (NonLesson).
                    sections = NonLesson.lessons(sections)
                    var topics = sections.flatMap { section in
                        let name = section.name.isEmpty ? unitTitle : section.name
                        let title = generic.contains(normalised(name)) && name != unitTitle ? "\(name): \(bare(unitTitle))" : name
                        return recordingParts(TopicDraft(title: title, identity: document.uri + "|" + [group.name, section.name].joined(separator: "/"),
                                                         headings: headings(section.passages, below: depth + 1), passages: section.passages),
                                              vectors: vectors)
                    }
                    if !overview.isEmpty, !topics.isEmpty { topics[0].passages = overview + topics[0].passages }
                    return UnitDraft(title: unitTitle, topics: topics)
                }
            }
        }
        // A few words before the first section (a title page's name and author) are no topic.
        var sections = top
        if sections.count > 1, let first = sections.first, first.name.isEmpty, first.passages.reduce(0, { $0 + $1.tokenCount }) < 50 {
            sections.removeFirst()
        }
        // A document divided in sections keeps them as its topics when the ones that are no
        // lessons go, even if one is left: it is not cut by content then.
        let divided = sections.count > 1
        if divided {
            sections = NonLesson.lessons(sections)
            if sections.isEmpty { return [] }
        }
        let unit = UnitDraft(title: document.title, topics: topics(document: document, groups: sections.isEmpty ? [("", passages)] : sections,
                                                                      depth: depth, vectors: vectors, divided: divided))
        return unit.topics.isEmpty ? [] : [unit]
    }

    /// One topic per section; a document with one section (or none) is cut by content, unless it
    /// was `divided` in sections of which one is a lesson.
    static func topics(document: StoredDocument, groups: [(name: String, passages: [Passage])], depth: Int,
                       vectors: [Int64: [Float]], divided: Bool = false) -> [TopicDraft] {
        if groups.count == 1, !divided, let only = groups.first {
            let name = only.name.isEmpty ? document.title : only.name
            let withVectors = only.passages.filter { vectors[$0.id] != nil }
            if withVectors.count >= 4 {
                let ranges = TopicContent.segments(vectors: withVectors.map { vectors[$0.id]! }, tokenCounts: withVectors.map(\.tokenCount))
                if ranges.count > 1 {
                    let background = KeyPhrases.Background(withVectors)
                    return ranges.enumerated().map { index, range in
                        let stretch = Array(withVectors[range])
                        return TopicDraft(title: TopicContent.title(for: stretch, against: background),
                                          identity: document.uri + "|" + only.name + "#\(index + 1)",
                                          headings: [], passages: stretch, titleFromContent: true)
                    }
                }
            }
            return [TopicDraft(title: name, identity: document.uri + "|" + only.name, headings: headings(only.passages, below: depth),
                               passages: only.passages)]
        }
        return groups.flatMap { group in
            let name = group.name.isEmpty ? document.title : group.name
            let title = generic.contains(normalised(name)) ? "\(name): \(bare(document.title))" : name
            return recordingParts(TopicDraft(title: title, identity: document.uri + "|" + group.name, headings: headings(group.passages, below: depth),
                                             passages: group.passages), vectors: vectors)
        }
    }

    /// A recording longer than this many minutes is more than one study session: it is cut.
    static let longestRecordingMinutes = 15.0
    /// A part shorter than this many minutes joins the part before it.
    static let shortestRecordingMinutes = 3.0

    /// A section that is a lecture recording (its passages mostly timed transcript) longer than
    /// `longestRecordingMinutes`, cut where its subject shifts (the passages' vectors) and, where
    /// a stretch is still longer, at the passages nearest equal times; parts under
    /// `shortestRecordingMinutes` join the one before. Each part keeps the lecture's title with
    /// its number and its own key phrases: "Friction at the Nanoscale (2/3): surface contact".
    static func recordingParts(_ draft: TopicDraft, vectors: [Int64: [Float]]) -> [TopicDraft] {
        let passages = draft.passages
        let timed = passages.filter { $0.kind == .transcript && $0.timeStart != nil }
        guard timed.count >= 4, timed.count * 2 >= passages.count, duration(passages) > longestRecordingMinutes * 60 else { return [draft] }
        var ranges = [0..<passages.count]
        if passages.allSatisfy({ vectors[$0.id] != nil }) {
            ranges = TopicContent.segments(vectors: passages.map { vectors[$0.id]! }, tokenCounts: passages.map(\.tokenCount))
        }
        var parts: [Range<Int>] = []
        for range in ranges {
            let minutes = duration(Array(passages[range])) / 60
            let pieces = max(1, Int((minutes / longestRecordingMinutes).rounded(.up)))
            guard pieces > 1, let begin = passages[range.lowerBound].timeStart else { parts.append(range); continue }
            var lower = range.lowerBound
            for piece in 1..<pieces {
                let at = begin + Double(piece) * minutes * 60 / Double(pieces)
                if let cut = passages[lower..<range.upperBound].firstIndex(where: { ($0.timeStart ?? 0) >= at }), cut > lower {
                    parts.append(lower..<cut)
                    lower = cut
                }
            }
            parts.append(lower..<range.upperBound)
        }
        var joined: [Range<Int>] = []
        for part in parts {
            if let last = joined.last, duration(Array(passages[part])) < shortestRecordingMinutes * 60 {
                joined[joined.count - 1] = last.lowerBound..<part.upperBound
            } else {
                joined.append(part)
            }
        }
        if joined.count > 1, let first = joined.first, duration(Array(passages[first])) < shortestRecordingMinutes * 60 {
            joined[1] = first.lowerBound..<joined[1].upperBound
            joined.removeFirst()
        }
        guard joined.count > 1 else { return [draft] }
        let background = KeyPhrases.Background(passages)
        return joined.enumerated().map { index, range in
            let stretch = Array(passages[range])
            let phrases = TopicContent.title(for: stretch, against: background)
            return TopicDraft(title: "\(draft.title) (\(index + 1)/\(joined.count))" + (phrases.isEmpty ? "" : ": \(phrases)"),
                              identity: draft.identity + "#\(index + 1)", headings: [], passages: stretch)
        }
    }

    /// Seconds from the first timed passage's start to the last one's end.
    static func duration(_ passages: [Passage]) -> Double {
        guard let start = passages.compactMap(\.timeStart).min(), let end = passages.compactMap({ $0.timeEnd ?? $0.timeStart }).max() else { return 0 }
        return end - start
    }

    /// The section titles under a topic's own, once each, in order.
    static func headings(_ passages: [Passage], below depth: Int) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for passage in passages {
            for name in passage.sectionPath.dropFirst(depth + 1) where seen.insert(name).inserted { result.append(name) }
        }
        return result
    }
}
