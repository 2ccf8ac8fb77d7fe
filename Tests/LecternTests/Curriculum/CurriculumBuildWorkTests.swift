import Foundation
import XCTest
@testable import Lectern

/// A `curriculum build` of a 100,000-passage library took 441 s, 96% of it naming the key
/// phrases of units without objectives, where every candidate phrase was compared with every
/// phrase kept before it. The fast parts must say exactly what the slow ones said: the key
/// phrases, prerequisite links and study times a user reads are checked against the algorithms
/// as they were (`ReferenceCurriculumAlgorithms`) on generated prose, and the work the phrase
/// filter does is counted, not timed.
final class CurriculumBuildWorkTests: XCTestCase {
    // MARK: Generated prose

    /// Nouns that inflect ("forces", "forcing": stems merge), accented and capitalised words.
    static let nouns = [
        "force", "friction", "momentum", "energy", "river", "silt", "barley", "mill", "village", "velocity", "angular",
        "vector", "position", "allele", "gene", "philosophy", "argument", "virtue", "statement", "church", "printing",
        "press", "reformation", "café", "naïve", "Schrödinger", "equation", "wave", "particle", "charge", "circuit",
        "ATP", "cell", "membrane", "protein", "enzyme", "entropy", "message", "channel", "theorem",
    ]
    static let endings = ["", "", "", "s", "es", "ing", "ed", "ies", "’s"]
    /// Words that break a run of content words, or that a phrase must not end on.
    static let others = [
        "the", "of", "and", "a", "to", "in", "is", "that", "we", "it", "today", "okay", "example", "pretty",
        "12", "1984", "3", "quickly", "slowly", "pull", "pulls", "happen", "move", "ox", "so", "um",
    ]

    func sentence(_ random: inout TestRandom) -> String {
        let length = Int.random(in: 3...14, using: &random)
        var words: [String] = []
        for _ in 0..<length {
            if Double.random(in: 0..<1, using: &random) < 0.65 {
                // Early nouns are common, so phrases repeat within a topic and across a unit.
                let index = Int(Double(Self.nouns.count) * pow(Double.random(in: 0..<1, using: &random), 2))
                words.append(Self.nouns[index] + (Double.random(in: 0..<1, using: &random) < 0.3 ? Self.endings.randomElement(using: &random)! : ""))
            } else {
                words.append(Self.others.randomElement(using: &random)!)
            }
        }
        words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
        let separators = [" ", " ", " ", " ", ", ", " — ", " (", ") ", "-"]
        var text = words[0]
        for word in words.dropFirst() { text += separators.randomElement(using: &random)! + word }
        return text + [".", "?", "!", ";"].randomElement(using: &random)!
    }

    /// A unit's passages: each repeats the last sentence of the one before (the chunker's
    /// overlap), some sentences on a line of their own.
    func passages(_ count: Int, _ random: inout TestRandom) -> [Passage] {
        var previous: String?
        return (0..<count).map { ordinal in
            var sentences = (0..<Int.random(in: 1...6, using: &random)).map { _ in sentence(&random) }
            if let previous, Bool.random(using: &random) { sentences.insert(previous, at: 0) }
            previous = sentences.last
            let text = sentences.map { $0 + (Double.random(in: 0..<1, using: &random) < 0.2 ? "\n" : " ") }.joined()
            return Passage(id: Int64(ordinal + 1), documentId: 1, ordinal: ordinal, text: text, kind: .text, sectionPath: ["Unit"], tokenCount: 40)
        }
    }

    func shown(_ phrases: [KeyPhrases.Phrase]) -> [String] {
        phrases.map { "\($0.key) | \($0.shown) | \($0.words) | \($0.score)" }
    }

    // MARK: Key phrases

    func testKeyPhrasesRankAsTheyDidWhenEveryPhraseWasComparedWithEveryKeptOne() {
        var random = TestRandom.seeded()
        var compared = 0
        for unitIndex in 0..<12 {
            let unit = passages(Int.random(in: 2...40, using: &random), &random)
            let background = KeyPhrases.Background(unit)
            XCTAssertEqual(background.documentFrequency, ReferenceCurriculumAlgorithms.documentFrequency(unit), "unit \(unitIndex), \(random.replay)")
            var start = 0
            while start < unit.count {
                let topic = Array(unit[start..<min(unit.count, start + Int.random(in: 1...12, using: &random))])
                start += topic.count
                let fast = KeyPhrases.ranked(topic, against: background)
                XCTAssertEqual(shown(fast), shown(ReferenceCurriculumAlgorithms.ranked(topic, background: unit)), "unit \(unitIndex), \(random.replay)")
                // Against its own prose, as a topic of a unit that lends it no background.
                XCTAssertEqual(shown(KeyPhrases.ranked(topic, background: topic)),
                               shown(ReferenceCurriculumAlgorithms.ranked(topic, background: topic)), "unit \(unitIndex), \(random.replay)")
                compared += fast.count
            }
        }
        XCTAssertGreaterThan(compared, 500, "the generated prose gave too few phrases to compare")
    }

    /// A unit of many distinct phrases (a textbook chapter's) costs a few lookups a phrase:
    /// comparing each with every phrase kept before it made 10⁸ comparisons in a large unit.
    func testThePhraseFilterLooksUpAFewKeysPerPhraseHoweverManyItKeeps() {
        var perPhrase: [Double] = []
        for size in [500, 2_000] {
            // Words w0 … w(size/2), each alone and with the next: the pairs hold the single words.
            let phrases = (0..<size).map { index in
                let first = "w\(index / 2)"
                let key = index % 2 == 0 ? first + " w\(index / 2 + 1)" : first
                return KeyPhrases.Phrase(key: key, shown: key, words: key.split(separator: " ").count, score: Double(size - index))
            }
            var lookups = 0
            let kept = KeyPhrases.outermost(phrases, lookups: &lookups)
            // The same phrases kept as by comparing each with every kept one (which made 62,000
            // comparisons for 500 phrases, 10⁶ for 2,000).
            if size == 500 { XCTAssertEqual(kept.map(\.key), ReferenceCurriculumAlgorithms.outermost(phrases).map(\.key), "the phrases kept changed") }
            XCTAssertLessThan(kept.count, size, "no phrase was inside another")
            XCTAssertGreaterThan(kept.count, size / 4)
            XCTAssertLessThanOrEqual(lookups, 7 * size, "\(lookups) lookups for \(size) phrases")
            perPhrase.append(Double(lookups) / Double(size))
        }
        // Four times the phrases, the same work a phrase.
        XCTAssertEqual(perPhrase[1], perPhrase[0], accuracy: 0.5)
    }

    // MARK: Prerequisite links

    /// Defined terms, some inside others ("momentum" in "angular momentum").
    static let terms = (0..<36).map { index in
        let base = nouns[index % nouns.count]
        return index % 6 == 5 ? "\(nouns[(index + 7) % nouns.count]) \(nouns[(index - 1) % nouns.count])" : base
    }

    func topics(_ count: Int, _ random: inout TestRandom) -> (topics: [Topic], units: [Int]) {
        var topics: [Topic] = []
        var units: [Int] = []
        for index in 0..<count {
            // Each topic defines and teaches a few terms and leans on some of earlier topics.
            let own = (0..<3).map { Self.terms[(index * 3 + $0) % Self.terms.count] }
            let earlier = index == 0 ? [] : (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Self.terms[(Int.random(in: 0..<index, using: &random) * 3 + Int.random(in: 0...2, using: &random)) % Self.terms.count]
            }
            var words: [String] = []
            for term in own { words += Array(repeating: term, count: Int.random(in: 0...7, using: &random)) }
            for term in earlier { words += Array(repeating: term, count: Int.random(in: 1...4, using: &random)) }
            words += (0..<Int.random(in: 20...300, using: &random)).map { _ in Self.others.randomElement(using: &random)! }
            words.shuffle(using: &random)
            let passages = stride(from: 0, to: words.count, by: 60).enumerated().map { ordinal, start in
                Passage(id: Int64(index * 100 + ordinal + 1), documentId: 1, ordinal: ordinal, text: words[start..<min(words.count, start + 60)].joined(separator: " ") + ".",
                        kind: ordinal == 3 ? .glossary : .text, sectionPath: ["Topic \(index)"], tokenCount: 60)
            }
            let title = Bool.random(using: &random) ? "\(index + 1). \(own[0].capitalized)" : "Part \(index + 1)"
            let bases: [KeyTermBasis] = [.glossary, .defined, .emphasised, .heading]
            let keyTerms = (own + (Bool.random(using: &random) ? [earlier.first ?? own[0]] : [])).map {
                KeyTerm(term: $0, definition: "", origin: .source, passageId: nil, basis: bases.randomElement(using: &random)!)
            }
            let objectives = Bool.random(using: &random)
                ? [LearningObjective(stableId: "o\(index)", statement: "Explain \(earlier.first ?? own[1])", origin: Bool.random(using: &random) ? .source : .offline)] : []
            topics.append(Topic(stableId: "t\(index)", title: title, summary: "", summaryOrigin: .offline, objectives: objectives,
                                keyTerms: keyTerms, studyMinutes: 1, passages: passages, prerequisites: []))
            units.append(index / 7)
        }
        return (topics, units)
    }

    func testPrerequisiteLinksAreTheOnesEveryTermCountedInEveryTopicGave() {
        var random = TestRandom.seeded()
        var linked = 0
        for round in 0..<8 {
            let (topics, units) = topics(Int.random(in: 3...60, using: &random), &random)
            let fast = PrerequisiteLinks.links(for: topics, units: units)
            XCTAssertEqual(fast, ReferenceCurriculumAlgorithms.links(for: topics, units: units), "round \(round), \(random.replay)")
            XCTAssertEqual(PrerequisiteLinks.links(for: topics), ReferenceCurriculumAlgorithms.links(for: topics), "round \(round), \(random.replay)")
            linked += fast.values.map(\.count).reduce(0, +)
        }
        XCTAssertGreaterThan(linked, 20, "the generated topics linked too little to compare")
    }

    // MARK: Study time

    func testStudyTimeCountsFormulaeAsItDidCharacterByCharacter() {
        var random = TestRandom.seeded()
        // Formula characters (one written as "=" and a combining stroke, which is "≠"), words,
        // and the whitespace Unicode knows and ASCII's separators that are not whitespace.
        let tokens = ["x", "=", "y", "+", "2", "a−b", "∑", "∫f", "∂x", "≤", "=\u{338}", "e\u{301}", "x^2", "x_i", "\\frac",
                      "(a)", "1.", "is", "the", "energy", "momentum", "é", "ok", "→", "∀x∈S", "Proof", "proof"]
        let spaces = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u{A0}", "\u{2029}", "\u{85}", "\u{1F}", "\u{0B}"]
        var mathematics = 0
        var passages: [Passage] = []
        for index in 0..<400 {
            let symbolShare = Double.random(in: 0..<0.5, using: &random)
            let text = (0..<Int.random(in: 5...80, using: &random)).map { _ in
                (Double.random(in: 0..<1, using: &random) < symbolShare ? tokens.randomElement(using: &random)! : Self.nouns.randomElement(using: &random)!)
                    + spaces.randomElement(using: &random)!
            }.joined()
            let section = index % 50 == 0 ? ["Derivation"] : index % 31 == 0 ? ["Problem Set 2"] : ["Chapter"]
            let passage = Passage(id: Int64(index + 1), documentId: Int64(index % 3), ordinal: index, text: text, kind: .text, sectionPath: section,
                                  timeStart: index % 17 == 0 ? Double(index) : nil, timeEnd: index % 17 == 0 ? Double(index + 30) : nil, tokenCount: 40)
            XCTAssertEqual(StudyTime.isMathematics(passage), ReferenceCurriculumAlgorithms.isMathematics(passage), "\(text.debugDescription), \(random.replay)")
            if ReferenceCurriculumAlgorithms.isMathematics(passage) { mathematics += 1 }
            passages.append(passage)
        }
        XCTAssertGreaterThan(mathematics, 20)
        XCTAssertLessThan(mathematics, 380)
        for size in [1, 5, 40, 400] {
            let topic = Array(passages.prefix(size))
            XCTAssertEqual(StudyTime.minutes(passages: topic), ReferenceCurriculumAlgorithms.minutes(passages: topic), random.replay)
        }
    }
}
