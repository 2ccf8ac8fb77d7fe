import Foundation
import XCTest
@testable import Lectern

/// Offline flashcards from the shared OpenStax book: the glossary becomes cards, every kept
/// card's answer is in the passage it cites, answers moved to another passage are rejected,
/// duplicates go, identities hold across regeneration, and stems agree with the keyword index.
final class CardGenerationTests: XCTestCase {
    func testTheBookGivesGroundedCardsOfEveryKindIncludingItsGlossaryTerms() throws {
        let book = try BookCurriculum.load()
        let started = Date()
        let (cards, report) = CardGeneration.offline(book.curriculum)
        let seconds = Date().timeIntervalSince(started)
        print("offline cards for the whole book (debug build): \(cards.count) notes in \(String(format: "%.2f", seconds)) s; \(report.rejections.count) rejected, \(report.exactDuplicates) exact and \(report.nearDuplicates) near duplicates")

        XCTAssertGreaterThan(cards.count, 300)
        XCTAssertEqual(report.kept, cards.count)
        XCTAssertEqual(report.candidates, cards.count + report.rejections.count + report.duplicatesRemoved)
        for origin in [CardOrigin.glossary, .keyTerm, .definition, .objective] {
            XCTAssertTrue(cards.contains { $0.origin == origin }, "no \(origin) card")
        }
        for type in CardNoteType.allCases {
            XCTAssertTrue(cards.contains { $0.noteType == type }, "no \(type) note")
        }
        // The book's glossary: its terms are the fronts of Basic notes.
        let fronts = Set(cards.filter { $0.noteType != .cloze }.map { CardIdentity.normalised($0.front) })
        let terms = Set(book.glossaryTerms.map(CardIdentity.normalised))
        let covered = terms.filter(fronts.contains)
        XCTAssertGreaterThan(terms.count, 100)
        XCTAssertGreaterThanOrEqual(Double(covered.count), Double(terms.count) * 0.95, "glossary terms without a card: \(terms.subtracting(covered).sorted().prefix(10))")
        // A card names its place and the book's licence.
        let epistemology = try XCTUnwrap(cards.first { $0.origin == .glossary && $0.front.lowercased() == "epistemology" })
        XCTAssertTrue(epistemology.source.attribution.hasPrefix("Introduction to Philosophy"), epistemology.source.attribution)
        XCTAssertTrue(epistemology.source.attribution.contains("Creative Commons") || epistemology.source.attribution.contains("CC BY"), epistemology.source.attribution)

        // No kept card's answer words are missing from its passage (checked against the stored text).
        let passages = Dictionary(uniqueKeysWithValues: try book.store.passages(documentId: book.document.id).map { ($0.id, $0.text) })
        for card in cards {
            let text = try XCTUnwrap(passages[card.source.passageId])
            let stems = Set(PorterStemmer.stems(text))
            let missing = CardGrounding.contentStems(card.answer).filter { !stems.contains($0) }
            XCTAssertEqual(missing, [], "\(card.front) → \(card.answer)")
        }
    }

    /// 200 kept cards made to cite ANOTHER passage of the same book: at least 95% rejected,
    /// each with the words the passage lacks.
    func testAnswersFromOtherPassagesAreRejected() throws {
        let book = try BookCurriculum.load()
        let (cards, _) = CardGeneration.offline(book.curriculum)
        let topics = Dictionary(uniqueKeysWithValues: book.curriculum.topics.map { ($0.stableId, $0) })
        var kept = 0
        var rejected: [CardRejection] = []
        var generator = SystemRandomNumberGenerator()
        let chosen = cards.filter { $0.noteType != .cloze || $0.answer.count > 3 }.shuffled(using: &generator).prefix(200)
        XCTAssertEqual(chosen.count, 200)
        for card in chosen {
            let topic = try XCTUnwrap(topics[card.topicStableId])
            // Another passage of the same topic where it has one, or of another topic.
            let others = topic.passages.filter { $0.passageId != card.source.passageId && $0.kind != .glossary }
            let pool = others.isEmpty ? book.curriculum.topics.flatMap(\.passages).filter { $0.passageId != card.source.passageId } : others
            let other = try XCTUnwrap(pool.randomElement())
            var moved = card
            moved.source.passageId = other.passageId
            var host = topic
            host.passages.append(other)
            let result = CardGeneration.ground([moved], topic: host)
            kept += result.kept.count
            rejected += result.rejected
        }
        print("answers from other passages: \(rejected.count) of 200 rejected")
        XCTAssertGreaterThanOrEqual(rejected.count, 190)
        XCTAssertTrue(rejected.allSatisfy { $0.reason == .unsupported && $0.detail.contains("lacks") }, "\(rejected.prefix(3))")
    }

    func testIdentityHoldsAcrossRegenerationAndEdits() throws {
        let topic = "t-1"
        let basic = CardIdentity.guid(curriculum: "c", topic: topic, noteType: .basic, front: "What is  Ethics?")
        XCTAssertEqual(basic, CardIdentity.guid(curriculum: "c", topic: topic, noteType: .basicReversed, front: "what is ethics"))
        XCTAssertNotEqual(basic, CardIdentity.guid(curriculum: "c2", topic: topic, noteType: .basic, front: "What is ethics?"))
        XCTAssertNotEqual(basic, CardIdentity.guid(curriculum: "c", topic: "t-2", noteType: .basic, front: "What is ethics?"))
        // Cloze: the answer alone names the note; an edited sentence around it is the same note.
        XCTAssertEqual(CardIdentity.guid(curriculum: "c", topic: topic, noteType: .cloze, front: "{{c1::Ethics}} studies the good."),
                       CardIdentity.guid(curriculum: "c", topic: topic, noteType: .cloze, front: "Moral philosophy, or {{c1::ethics}}, asks what is right."))
        XCTAssertEqual(CardIdentity.noteTypeId(curriculum: "c", .cloze), CardIdentity.noteTypeId(curriculum: "c", .cloze))
        XCTAssertNotEqual(CardIdentity.noteTypeId(curriculum: "c", .cloze), CardIdentity.noteTypeId(curriculum: "c", .basic))

        // Regenerating the book: the same GUIDs; a changed back keeps its GUID with a newer time.
        let book = try BookCurriculum.load()
        let first = CardGeneration.offline(book.curriculum, now: Date(timeIntervalSince1970: 1_800_000_000)).cards
        let again = CardGeneration.offline(book.curriculum, now: Date(timeIntervalSince1970: 1_800_000_500)).cards
        XCTAssertEqual(first.map(\.guid), again.map(\.guid))
        var edited = again
        edited[0].back += " (revised)"
        let revised = CardGeneration.revise(edited, previous: first, now: Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertEqual(revised[0].guid, first[0].guid)
        XCTAssertGreaterThan(revised[0].modifiedAt, first[0].modifiedAt, "a changed note is newer, even within the same second")
        XCTAssertEqual(revised[1].modifiedAt, first[1].modifiedAt, "an unchanged note keeps its time")
    }

    func testDuplicatesGoKeepingTheBetterGroundedAndAReversedCardIsNoDuplicate() throws {
        let passage = TopicPassage(passageId: 1, documentId: 1, ordinal: 0,
                                   text: "Epistemology is the study of knowledge: what we know, how we know it, and what justifies belief.",
                                   kind: .text, sectionPath: ["1", "1.1"], pageStart: 3, pageEnd: 3, pageLabel: nil, timeStart: nil,
                                   timeEnd: nil, tokenCount: 20)
        let topic = Topic(stableId: "t", title: "Knowledge", summary: "", summaryOrigin: .offline, objectives: [], keyTerms: [],
                          studyMinutes: 1, passages: [passage], prerequisites: [])
        let curriculum = Curriculum(name: "k", title: "K", stableId: "c-k", sources: [], units: [CurriculumUnit(stableId: "u", title: "U", topics: [topic])],
                                    modelName: nil, createdAt: Date(), modifiedAt: Date())
        let deck = CardDeckContext(curriculum: curriculum)
        var glossary = deck.card(topic: topic, type: .basicReversed, front: "Epistemology", back: "the study of knowledge",
                                 origin: .glossary, passage: passage)
        glossary.grounding = 1
        var weaker = deck.card(topic: topic, type: .basic, front: "Epistemology:", back: "The study of knowledge.",
                               origin: .definition, passage: passage)
        weaker.guid = "other"
        weaker.grounding = 0.9
        var near = deck.card(topic: topic, type: .basic, front: "What is epistemology, what we know, how we know it, and what justifies belief?",
                             back: "the study of knowledge: what we know, how we know it, and what justifies belief", origin: .definition, passage: passage)
        near.grounding = 0.8
        var nearer = near
        nearer.guid = "nearer"
        nearer.front = "What is epistemology, what we know, how we know it and what justifies belief?"
        nearer.grounding = 1
        let result = CardDeduplication.deduplicate([glossary, weaker, near, nearer])
        XCTAssertEqual(result.exact, 1)
        XCTAssertEqual(result.near, 1)
        XCTAssertEqual(result.cards.map(\.guid), [glossary.guid, "nearer"], "the better-grounded of each pair stays")
        XCTAssertEqual(result.cards.reduce(0) { $0 + $1.cardCount }, 3, "the reversed note makes two cards and is one note")
    }

    /// The stemmer agrees with SQLite's FTS5 porter tokenizer: every word of the book, stemmed
    /// here, is a term the library's keyword index holds.
    func testStemsAreTheKeywordIndexsTerms() throws {
        let book = try BookCurriculum.load()
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("no sqlite3 command here") }
        sqlite.arguments = ["-readonly", book.folder.file("book.db").path,
                            "CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, passages_fts, 'row'); SELECT term FROM temp.vocab;"]
        let pipe = Pipe()
        sqlite.standardOutput = pipe
        try sqlite.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        sqlite.waitUntilExit()
        let terms = Set(String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init))
        XCTAssertGreaterThan(terms.count, 5_000)
        var words = Set<String>()
        for passage in try book.store.passages(documentId: book.document.id) {
            for word in WordTokenizer.words(passage.text) { words.insert(WordTokenizer.fold(word)) }
        }
        let missing = words.filter { !terms.contains(PorterStemmer.stem($0)) }
        XCTAssertEqual(missing.count, 0, "stems the index does not hold: \(missing.sorted().prefix(20).map { "\($0) → \(PorterStemmer.stem($0))" })")
        XCTAssertEqual(["knowledge", "justified", "relational", "generalizations", "happiness", "running"].map(PorterStemmer.stem),
                       ["knowledg", "justifi", "relat", "gener", "happi", "run"])
    }
}
