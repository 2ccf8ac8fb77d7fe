import Foundation
@testable import Lectern

/// The curriculum builder's algorithms as they were before they were made fast (main at
/// 8caad78), kept verbatim as the reference the fast ones must agree with: a `curriculum build`
/// may get quicker, never different.
enum ReferenceCurriculumAlgorithms {
    // MARK: KeyPhrases.ranked: every phrase compared with every kept phrase by substring.

    static func candidates(_ text: String) -> [(key: String, shown: String)] {
        var result: [(key: String, shown: String)] = []
        var run: [String] = []
        func close() {
            defer { run = [] }
            for length in 1...3 where run.count >= length {
                for start in 0...(run.count - length) {
                    let words = Array(run[start..<(start + length)])
                    result.append((words.map { TermMatcher.stem(WordTokenizer.fold($0)) }.joined(separator: " "), words.joined(separator: " ")))
                }
            }
        }
        for word in ContentWords.surface(text) {
            let folded = WordTokenizer.fold(word)
            if folded.count > 2, !folded.allSatisfy(\.isNumber), !KeyPhrases.isStopword(folded) {
                run.append(word)
            } else {
                close()
            }
        }
        close()
        return result
    }

    static func documentFrequency(_ background: [Passage]) -> [String: Int] {
        var documentFrequency: [String: Int] = [:]
        for passage in background {
            for key in Set(candidates(passage.text).map(\.key)) { documentFrequency[key, default: 0] += 1 }
        }
        return documentFrequency
    }

    static func ranked(_ passages: [Passage], background: [Passage]) -> [KeyPhrases.Phrase] {
        let documentFrequency = documentFrequency(background)
        let documents = Double(max(background.count, 1))
        var frequency: [String: Int] = [:]
        var shown: [String: [String: Int]] = [:]
        var firstSeen: [String: Int] = [:]
        var position = 0
        var seenSentences = Set<String>()
        for passage in passages {
            for line in passage.text.split(separator: "\n") {
                for sentence in SentenceSplitter.split(String(line)).map(\.text) where seenSentences.insert(sentence).inserted {
                    for candidate in candidates(sentence) {
                        frequency[candidate.key, default: 0] += 1
                        shown[candidate.key, default: [:]][candidate.shown, default: 0] += 1
                        if firstSeen[candidate.key] == nil { firstSeen[candidate.key] = position }
                        position += 1
                    }
                }
            }
        }
        var phrases: [KeyPhrases.Phrase] = []
        for (key, count) in frequency {
            let words = key.split(separator: " ")
            guard count >= 2 || frequency.count < 20, Set(words).count == words.count,
                  let last = words.last, !KeyPhrases.weakEndings.contains(String(last)), !last.hasSuffix("ly") else { continue }
            let idf = log((documents + 1) / (Double(documentFrequency[key] ?? 0) + 1)) + 0.1
            let score = (1 + log(Double(count))) * idf * (1 + 0.5 * Double(words.count - 1))
            let surface = shown[key]!.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
            phrases.append(KeyPhrases.Phrase(key: key, shown: surface, words: words.count, score: score))
        }
        phrases.sort { $0.score != $1.score ? $0.score > $1.score : firstSeen[$0.key]! < firstSeen[$1.key]! }
        return outermost(phrases)
    }

    /// The quadratic filter; `comparisons` counts the phrase comparisons it makes.
    static func outermost(_ phrases: [KeyPhrases.Phrase], comparisons: inout Int) -> [KeyPhrases.Phrase] {
        var kept: [KeyPhrases.Phrase] = []
        for phrase in phrases where !kept.contains(where: { comparisons += 1; return overlaps($0.key, phrase.key) && $0.score >= phrase.score }) {
            kept.append(phrase)
        }
        return kept
    }

    static func outermost(_ phrases: [KeyPhrases.Phrase]) -> [KeyPhrases.Phrase] {
        var comparisons = 0
        return outermost(phrases, comparisons: &comparisons)
    }

    private static func overlaps(_ a: String, _ b: String) -> Bool {
        let x = " \(a) ", y = " \(b) "
        return x.contains(y) || y.contains(x)
    }

    // MARK: PrerequisiteLinks.links: every term counted in every topic's text.

    static func links(for topics: [Topic], units: [Int]? = nil) -> [String: [TopicLink]] {
        typealias P = PrerequisiteLinks
        let unit = units ?? Array(repeating: 0, count: topics.count)
        let texts = topics.map { topic in topic.passages.filter { $0.kind != .glossary }.flatMap { TermMatcher.stems(P.withoutOutlineLines($0.text)) } }
        let contexts = topics.map { topic in topic.passages.filter { $0.kind != .glossary }.flatMap { TermMatcher.stems($0.text) } }
        let titles = topics.map { TermMatcher.stems($0.title) }
        let taught = topics.map { topic in
            TermMatcher.stems(([topic.title] + topic.objectives.filter { $0.origin == .source }.map(\.statement)).joined(separator: ". "))
        }
        let aims = topics.map { topic in TermMatcher.stems(([topic.title] + topic.objectives.map(\.statement)).joined(separator: ". ")) }
        var definer: [[String]: (position: Int, term: String)] = [:]
        var taughtBefore: Set<[String]> = []
        var order: [[String]] = []
        for (position, topic) in topics.enumerated() {
            for keyTerm in topic.keyTerms where P.definingBases.contains(keyTerm.basis) {
                let stems = TermMatcher.stems(keyTerm.term)
                guard !stems.isEmpty, stems.joined().count > 2, definer[stems] == nil, !taughtBefore.contains(stems) else { continue }
                if titles[..<position].contains(where: { TermMatcher.count(stems, in: $0) > 0 }) {
                    taughtBefore.insert(stems)
                    continue
                }
                guard TermMatcher.count(stems, in: titles[position]) > 0 || TermMatcher.count(stems, in: texts[position]) >= P.teachingUses else { continue }
                definer[stems] = (position, keyTerm.term)
                order.append(stems)
            }
        }
        let longer = Dictionary(uniqueKeysWithValues: order.map { stems in
            (stems, order.filter { $0.count > stems.count && TermMatcher.count(stems, in: $0) > 0 })
        })
        func said(_ stems: [String], in words: [String]) -> Int {
            var count = TermMatcher.count(stems, in: words)
            guard count > 0 else { return 0 }
            for outer in longer[stems] ?? [] { count -= TermMatcher.count(outer, in: words) * TermMatcher.count(stems, in: outer) }
            return max(0, count)
        }
        if topics.count >= 4 {
            let general = order.filter { stems in
                Double(texts.filter { said(stems, in: $0) > 0 }.count) > P.generalShare * Double(topics.count)
            }
            for stems in general { definer[stems] = nil }
        }
        var result: [String: [TopicLink]] = [:]
        var sense: TermSense?
        for (position, topic) in topics.enumerated() {
            let own = Set(topic.keyTerms.map { TermMatcher.stems($0.term) })
            var uses: [(target: Int, term: String, count: Int, rank: Int)] = []
            for (rank, stems) in order.enumerated() {
                guard let defined = definer[stems], defined.position < position, !own.contains(stems) else { continue }
                let count = said(stems, in: texts[position])
                guard count >= P.minimumUses else { continue }
                let sameUnitLesson = unit[defined.position] == unit[position] && TermMatcher.count(stems, in: taught[defined.position]) > 0
                let leansOn = said(stems, in: aims[position]) > 0
                    || Double(count) * 1_000 >= P.leaningDensity * Double(max(1, texts[position].count))
                guard sameUnitLesson || leansOn else { continue }
                let saidBefore = texts[..<defined.position].filter { said(stems, in: $0) > 0 }.count
                let everyday = stems.count == 1 && saidBefore >= 2 && Double(saidBefore) > P.everydayShare * Double(defined.position)
                if everyday, count < P.passingUses, TermMatcher.count(stems, in: titles[defined.position]) == 0,
                   said(stems, in: aims[position]) == 0 { continue }
                // The sense check of a link across units (TermSense), as the builder makes it.
                if unit[defined.position] != unit[position] {
                    if sense == nil { sense = TermSense(texts: contexts) }
                    let definition = topics[defined.position].keyTerms.first { TermMatcher.stems($0.term) == stems }?.definition ?? ""
                    guard sense!.same(stems, user: position, definer: defined.position, definition: definition) else { continue }
                }
                uses.append((defined.position, defined.term, count, rank))
            }
            uses.sort { $0.count != $1.count ? $0.count > $1.count : $0.rank < $1.rank }
            var links: [TopicLink] = []
            for use in uses where links.count < P.limit {
                let target = topics[use.target].stableId
                if !links.contains(where: { $0.topicStableId == target }) { links.append(TopicLink(topicStableId: target, term: use.term)) }
            }
            if !links.isEmpty { result[topic.stableId] = links }
        }
        return result
    }

    // MARK: StudyTime.isMathematics: every character searched for in the list of symbols.

    static func isMathematics(_ passage: Passage) -> Bool {
        let lower = passage.text.prefix(40).lowercased()
        if lower.hasPrefix("proof") || lower.hasPrefix("beweis") { return true }
        if passage.sectionPath.contains(where: { ["proof", "beweis", "derivation", "herleitung"].contains($0.lowercased()) }) { return true }
        let tokens = passage.text.split(whereSeparator: \.isWhitespace)
        guard tokens.count >= 20 else { return false }
        let symbols = tokens.filter { token in
            token.contains { "=+−×÷∑∫∂≤≥≠→∈⊂∀∃^_\\".contains($0) } || (token.count <= 2 && !token.allSatisfy(\.isLetter))
        }.count
        return Double(symbols) >= 0.15 * Double(tokens.count)
    }

    static func minutes(passages: [Passage]) -> Int {
        var seconds = 0.0
        var spans: [Int64: (start: Double, end: Double)] = [:]
        for passage in passages {
            if let start = passage.timeStart {
                let end = passage.timeEnd ?? start
                let span = spans[passage.documentId] ?? (start, end)
                spans[passage.documentId] = (min(span.start, start), max(span.end, end))
                continue
            }
            let words = Double(passage.text.split(whereSeparator: \.isWhitespace).count)
            if StudyTime.isProblem(passage) {
                seconds += Double(StudyTime.problems(in: passage.text) * StudyTime.minutesPerProblem) * 60
            } else if isMathematics(passage) {
                seconds += words * 60 / Double(StudyTime.mathematicsWordsPerMinute)
            } else {
                seconds += words * 60 / Double(StudyTime.wordsPerMinute)
            }
        }
        seconds += spans.values.reduce(0) { $0 + max(0, $1.end - $1.start) }
        return max(1, Int((seconds / 60).rounded(.up)))
    }
}
