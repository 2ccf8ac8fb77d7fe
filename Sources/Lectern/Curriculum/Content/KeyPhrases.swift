import Foundation

/// An offline title for a topic that has no heading of its own (a stretch of a transcript):
/// its key phrases, weighted by tf-idf against the whole input, in title case.
enum KeyPhrases {
    static let maximumWords = 8

    /// `background`: the passages of the whole input (the document the topic is cut from), so
    /// that words every topic of a lecture uses ("today", the course's subject) weigh little.
    /// Without it the topic's own passages are the background.
    static func title(for passages: [Passage], background: [Passage] = []) -> String {
        title(for: passages, against: Background(background.isEmpty ? passages : background))
    }

    /// `title(for:background:)` against a background counted once for all its stretches.
    static func title(for passages: [Passage], against background: Background) -> String {
        let phrases = ranked(passages, against: background)
        guard let first = phrases.first else { return fallback(passages) }
        var chosen = [first]
        // A second phrase that is not part of the first makes the title name the stretch better.
        if let second = phrases.dropFirst().first(where: { candidate in
            !chosen.contains { sharesWord($0.key, candidate.key) }
        }), second.score >= first.score * 0.75, first.words + second.words + 1 <= maximumWords {
            chosen.append(second)
        }
        return titleCase(chosen.map(\.shown).joined(separator: " and "))
    }

    struct Phrase {
        var key: String
        var shown: String
        var words: Int
        var score: Double
    }

    /// Candidate phrases (runs of one to three content words), best first: sublinear term
    /// frequency in the topic times inverse document frequency over the background's passages,
    /// a phrase of several words weighted above its words alone.
    static func ranked(_ passages: [Passage], background: [Passage]) -> [Phrase] {
        ranked(passages, against: Background(background))
    }

    /// How many of a background's passages hold each candidate phrase. Counted once for every
    /// topic ranked against the same background: a unit of 1,000 one-passage topics counted
    /// its 1,000 passages for each of them (10⁶ passages read for a unit, 10⁸ for a library of
    /// 100,000 passages).
    struct Background {
        var documentFrequency: [String: Int] = [:]
        var passages: Int

        init(_ background: [Passage]) {
            passages = background.count
            for passage in background {
                for key in Set(KeyPhrases.candidateKeys(passage.text)) { documentFrequency[key, default: 0] += 1 }
            }
        }
    }

    /// `ranked(_:background:)` against a background already counted.
    static func ranked(_ passages: [Passage], against background: Background) -> [Phrase] {
        let documentFrequency = background.documentFrequency
        let documents = Double(max(background.passages, 1))
        // One entry a phrase (one hash a candidate, not three).
        var tallies: [String: Tally] = [:]
        var position = 0
        // Consecutive passages repeat a sentence or two (the chunker's overlap): each counts once.
        var seenSentences = Set<String>()
        for passage in passages {
            for line in passage.text.split(separator: "\n") {
                for sentence in SentenceSplitter.split(String(line)).map(\.text) where seenSentences.insert(sentence).inserted {
                    for candidate in candidates(sentence) {
                        tallies[candidate.key, default: Tally(firstSeen: position)].add(candidate.shown)
                        position += 1
                    }
                }
            }
        }
        var phrases: [(phrase: Phrase, firstSeen: Int)] = []
        for (key, tally) in tallies {
            let words = key.split(separator: " ")
            // A phrase said once is a chance pairing; one that repeats a word ("pulled pulled")
            // or ends on a word that names no thing is a piece of a sentence.
            guard tally.count >= 2 || tallies.count < 20, Set(words).count == words.count,
                  let last = words.last, !weakEndings.contains(String(last)), !last.hasSuffix("ly") else { continue }
            let idf = log((documents + 1) / (Double(documentFrequency[key] ?? 0) + 1)) + 0.1
            let score = (1 + log(Double(tally.count))) * idf * (1 + 0.5 * Double(words.count - 1))
            let surface = tally.shown.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
            phrases.append((Phrase(key: key, shown: surface, words: words.count, score: score), tally.firstSeen))
        }
        phrases.sort { $0.phrase.score != $1.phrase.score ? $0.phrase.score > $1.phrase.score : $0.firstSeen < $1.firstSeen }
        var lookups = 0
        return outermost(phrases.map { $0.phrase }, lookups: &lookups)
    }

    /// A candidate phrase's count in a topic, its spellings and where it was first met.
    struct Tally {
        var count = 0
        var shown: [String: Int] = [:]
        var firstSeen: Int

        mutating func add(_ spelling: String) {
            count += 1
            shown[spelling, default: 0] += 1
        }
    }

    /// `phrases` (best first) without those inside a better one or holding one ("force" after
    /// "friction force"): a phrase adds nothing next to a kept phrase whose words it repeats.
    /// Every kept phrase is at least as good as a later one, so a phrase is dropped when a kept
    /// one is a run of its words or it is a run of a kept one's words: a few set lookups per
    /// phrase (`lookups` counts them), where comparing it with every kept phrase was quadratic
    /// (39% of a 100,000-passage library's `curriculum build`, tens of thousands of phrases a unit).
    static func outermost(_ phrases: [Phrase], lookups: inout Int) -> [Phrase] {
        var kept: [Phrase] = []
        var keptKeys: Set<String> = []
        // Every run of words inside a kept phrase, the phrase itself included.
        var insideKept: Set<String> = []
        for phrase in phrases {
            let runs = wordRuns(phrase.key)
            lookups += 1
            if insideKept.contains(phrase.key) { continue }
            var holdsKept = false
            for run in runs {
                lookups += 1
                if keptKeys.contains(run) { holdsKept = true; break }
            }
            if holdsKept { continue }
            kept.append(phrase)
            keptKeys.insert(phrase.key)
            insideKept.formUnion(runs)
        }
        return kept
    }

    /// The runs of consecutive words of a phrase's key ("a b c": "a", "b", "c", "a b", "b c",
    /// "a b c"): the strings `" \(key) "` holds between two spaces.
    static func wordRuns(_ key: String) -> [String] {
        let words = key.split(separator: " ", omittingEmptySubsequences: false)
        var runs: [String] = []
        for length in 1...words.count {
            for start in 0...(words.count - length) { runs.append(words[start..<(start + length)].joined(separator: " ")) }
        }
        return runs
    }

    /// Words (stemmed) a noun phrase does not end on: verbs and adverbs of speech.
    static let weakEndings: Set<String> = [
        "allow", "instead", "near", "move", "resist", "exist", "touche", "touch", "increase", "decrease", "generat",
        "pull", "push", "happen", "become", "remain", "seem", "start", "stop", "follow", "call", "ago", "later",
        "together", "away", "around", "across", "along", "toward", "towards", "per", "via",
    ]

    /// Runs of content words split into phrases of one to three words: (folded key, as written).
    static func candidates(_ text: String) -> [(key: String, shown: String)] {
        var result: [(key: String, shown: String)] = []
        forEachRun(of: text) { words, stems in
            for length in 1...3 where words.count >= length {
                for start in 0...(words.count - length) {
                    result.append((stems[start..<(start + length)].joined(separator: " "), words[start..<(start + length)].joined(separator: " ")))
                }
            }
        }
        return result
    }

    /// The keys of `candidates(text)` alone, in the same order (a background counts keys only).
    static func candidateKeys(_ text: String) -> [String] {
        var result: [String] = []
        forEachRun(of: text) { _, stems in
            for length in 1...3 where stems.count >= length {
                for start in 0...(stems.count - length) { result.append(stems[start..<(start + length)].joined(separator: " ")) }
            }
        }
        return result
    }

    /// Each run of content words of `text`, as written and folded and stemmed: each word is
    /// stemmed once, not once for every phrase it is part of (up to six).
    private static func forEachRun(of text: String, _ body: ([String], [String]) -> Void) {
        var run: [String] = []
        var stems: [String] = []
        for word in ContentWords.surface(text) {
            let folded = WordTokenizer.fold(word)
            if folded.count > 2, !folded.allSatisfy(\.isNumber), !isStopword(folded) {
                run.append(word)
                stems.append(TermMatcher.stem(folded))
            } else if !run.isEmpty {
                body(run, stems)
                run = []
                stems = []
            }
        }
        if !run.isEmpty { body(run, stems) }
    }

    static func isStopword(_ word: String) -> Bool {
        ContentWords.stopwords.contains(word) || spokenFillers.contains(word)
    }

    /// Words of speech and of teaching that name no subject.
    static let spokenFillers: Set<String> = [
        "gonna", "wanna", "gotta", "yes", "hey", "hello", "welcome", "today", "look", "looking", "looks", "talk",
        "talking", "talked", "said", "says", "saying", "going", "goes", "went", "come", "comes", "coming", "okay",
        "alright", "basically", "simply", "pretty", "little", "bit", "able", "sure", "course", "let's", "here's",
        "there's", "that's", "it's", "we're", "you're", "they're", "don't", "doesn't", "example", "examples",
        "different", "another", "something", "anything", "everything", "someone", "good", "great", "important",
        "need", "needs", "try", "trying", "question", "answer", "case", "cases", "part", "section", "chapter",
        "figure", "video", "lecture", "slide", "three", "four", "five", "last", "end", "start", "started",
        "find", "found", "work", "works", "done", "got", "get", "getting", "called", "given", "gives", "also",
        "still", "always", "never", "maybe", "probably", "certain", "certainly", "whole", "enough", "quite",
        "rather", "already", "able", "seen", "show", "shows", "shown", "tell", "told", "feel", "better", "best",
        "big", "small", "large", "high", "low", "long", "short", "real", "true", "now", "ones", "stuff",
    ]

    private static func sharesWord(_ a: String, _ b: String) -> Bool {
        !Set(a.split(separator: " ")).isDisjoint(with: b.split(separator: " "))
    }

    /// Title case that keeps acronyms and words written with capitals as they are ("ATP",
    /// "iPhone"), with short function words in lower case after the first word.
    static func titleCase(_ text: String) -> String {
        let minor: Set<String> = ["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "vs", "via"]
        let words = text.split(separator: " ").prefix(maximumWords).map(String.init)
        return words.enumerated().map { index, word in
            if index > 0, minor.contains(word.lowercased()) { return word.lowercased() }
            if word.dropFirst().contains(where: \.isUppercase) { return word }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// The first words of the topic when it has no phrase worth naming.
    private static func fallback(_ passages: [Passage]) -> String {
        let words = passages.first.map { ContentWords.surface($0.text) } ?? []
        return words.isEmpty ? "Untitled Topic" : titleCase(words.prefix(6).joined(separator: " "))
    }
}
