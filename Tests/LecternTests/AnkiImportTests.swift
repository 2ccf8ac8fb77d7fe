import Foundation
import XCTest
@testable import Lectern

/// Decks from the shared OpenStax book imported into REAL Anki (the `anki` package in
/// `.venv-anki`, `make anki`) through Tests/Support/anki_import.py: the notes, cards, decks,
/// note types and fields Anki ends up with; the TSV import; and a regenerated deck after a
/// source edit, re-imported over a reviewed collection.
final class AnkiImportTests: XCTestCase {
    static let python = TestPaths.packageRoot.appendingPathComponent(".venv-anki/bin/python")
    static let helper = TestPaths.packageRoot.appendingPathComponent("Tests/Support/anki_import.py")

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw XCTSkip("Anki's Python package is not installed in .venv-anki: run `make anki` (make test does)")
        }
    }

    /// Runs the helper; its JSON output as a dictionary.
    func anki(_ collection: URL, _ files: [URL], review: [String] = []) throws -> [String: Any] {
        let process = Process()
        process.executableURL = Self.python
        process.arguments = [Self.helper.path, collection.path] + files.map(\.path) + (review.isEmpty ? [] : ["--review"] + review)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], errors)
    }

    /// The first three chapters of the book, to keep Anki's work short.
    func smallerBook() throws -> (BookCurriculum, Curriculum) {
        let book = try BookCurriculum.load()
        var curriculum = book.curriculum
        curriculum.units = Array(curriculum.units.prefix(3))
        return (book, curriculum)
    }

    func notes(_ snapshot: [String: Any]) -> [[String: Any]] { snapshot["notes"] as? [[String: Any]] ?? [] }

    func testTheBooksDeckImportsWithItsDecksNoteTypesAndFields() throws {
        let (_, curriculum) = try smallerBook()
        let (cards, _) = CardGeneration.offline(curriculum)
        let layout = CardDeckLayout(curriculum: curriculum)
        let folder = try TemporaryFolder()
        let apkg = folder.file("philosophy.apkg")
        try AnkiPackageWriter.write(cards, layout: layout, to: apkg.path)

        let snapshot = try anki(folder.file("a.anki2"), [apkg])
        XCTAssertEqual(snapshot["note_count"] as? Int, cards.count)
        XCTAssertEqual(snapshot["card_count"] as? Int, cards.reduce(0) { $0 + $1.cardCount })
        let decks = (snapshot["decks"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(decks.contains(curriculum.title), "\(decks)")
        let topicDecks = decks.filter { $0.split(separator: "::", omittingEmptySubsequences: false).count >= 3 }
        XCTAssertGreaterThanOrEqual(topicDecks.count, 10, "\(decks)")
        XCTAssertTrue(decks.contains { $0.hasPrefix(curriculum.title + "::1 Introduction to Philosophy::") }, "\(decks)")
        let course = try XCTUnwrap((snapshot["decks"] as? [[String: Any]])?.first { $0["name"] as? String == curriculum.title })
        XCTAssertTrue((course["desc"] as? String ?? "").contains("Introduction to Philosophy"), "the deck description names its source")

        let types = (snapshot["notetypes"] as? [[String: Any]] ?? []).filter { ($0["name"] as? String ?? "").hasPrefix("Lectern") }
        XCTAssertEqual(types.compactMap { $0["name"] as? String }.sorted(), ["Lectern Basic (optional reversed card)", "Lectern Cloze"])
        XCTAssertEqual(types.first { $0["name"] as? String == "Lectern Cloze" }?["fields"] as? [String], ["Text", "Back Extra", "Source"])
        XCTAssertEqual(types.first { $0["name"] as? String == "Lectern Basic (optional reversed card)" }?["fields"] as? [String],
                       ["Front", "Back", "Source", "Add Reverse"])
        // A Basic note without the reverse makes one card.
        let single = try XCTUnwrap(cards.first { $0.noteType == .basic })
        XCTAssertEqual((notes(snapshot).first { $0["guid"] as? String == single.guid }?["cards"] as? [[String: Any]])?.count, 1)

        // A glossary note as Anki holds it: its fields, its two cards, its tags, its deck.
        let card = try XCTUnwrap(cards.first { $0.noteType == .basicReversed })
        let note = try XCTUnwrap(notes(snapshot).first { $0["guid"] as? String == card.guid })
        let fields = try XCTUnwrap(note["fields"] as? [String: String])
        XCTAssertEqual(fields["Front"], HTMLText.escape(card.front))
        XCTAssertEqual(fields["Back"], HTMLText.escape(card.back))
        XCTAssertTrue((fields["Source"] ?? "").hasPrefix("Introduction to Philosophy"), "\(fields)")
        XCTAssertEqual((note["cards"] as? [[String: Any]])?.count, 2)
        XCTAssertTrue((note["tags"] as? [String] ?? []).contains { $0.hasPrefix("topic::") }, "\(note)")
        let cloze = try XCTUnwrap(cards.first { $0.noteType == .cloze })
        let clozeNote = try XCTUnwrap(notes(snapshot).first { $0["guid"] as? String == cloze.guid })
        XCTAssertTrue(((clozeNote["fields"] as? [String: String])?["Text"] ?? "").contains("{{c1::"))
    }

    func testTheTSVImportsIntoAFreshCollection() throws {
        let (_, curriculum) = try smallerBook()
        let (cards, _) = CardGeneration.offline(curriculum)
        let layout = CardDeckLayout(curriculum: curriculum)
        let folder = try TemporaryFolder()
        let tsv = folder.file("philosophy.tsv")
        try CardExportFormat.tsv.render(cards, layout: layout).write(to: tsv)
        let text = try String(contentsOf: tsv, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#separator:tab\n#html:true\n#guid column:1\n#notetype column:2\n#deck column:3\n#tags column:7\n"))

        let snapshot = try anki(folder.file("t.anki2"), [tsv])
        XCTAssertEqual(snapshot["note_count"] as? Int, cards.count)
        XCTAssertEqual(snapshot["card_count"] as? Int, cards.reduce(0) { $0 + $1.cardCount })
        let decks = (snapshot["decks"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(decks.contains { $0.hasPrefix(curriculum.title + "::") }, "\(decks)")
        let card = try XCTUnwrap(cards.first { $0.noteType == .basic })
        let note = try XCTUnwrap(notes(snapshot).first { $0["guid"] as? String == card.guid })
        XCTAssertEqual(note["notetype"] as? String, "Basic (optional reversed card)")
        let cloze = try XCTUnwrap(cards.first { $0.noteType == .cloze })
        let clozeNote = try XCTUnwrap(notes(snapshot).first { $0["guid"] as? String == cloze.guid })
        XCTAssertEqual(clozeNote["notetype"] as? String, "Cloze")
        XCTAssertTrue(((clozeNote["fields"] as? [String: String])?["Text"] ?? "").contains("{{c1::"))
        XCTAssertEqual((note["fields"] as? [String: String])?["Front"], HTMLText.escape(card.front))
    }

    /// 5,000 notes (the book's cards, repeated under new GUIDs) written as an .apkg that Anki
    /// imports whole; the time is printed (the issue's bound, 2 s, is for a release build).
    func testFiveThousandCardsExportAsOnePackage() throws {
        let book = try BookCurriculum.load()
        let base = book.offline.cards
        let many = (0..<5_000).map { index -> Flashcard in
            var card = base[index % base.count]
            card.guid = "lc-speed-\(index)"
            if card.noteType == .basicReversed { card.noteType = .basic }
            return card
        }
        let folder = try TemporaryFolder()
        let apkg = folder.file("many.apkg")
        let started = Date()
        try AnkiPackageWriter.write(many, layout: CardDeckLayout(curriculum: book.curriculum), to: apkg.path)
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "apkg of 5,000 cards (debug build): %.2f s", seconds))
        XCTAssertLessThan(seconds, 10)
        let snapshot = try anki(folder.file("m.anki2"), [apkg])
        XCTAssertEqual(snapshot["card_count"] as? Int, 5_000)
    }

    /// Reviewed, then a passage edited and the deck regenerated: the re-import updates the
    /// changed note in place (no note added twice) and its review state survives.
    func testARegeneratedDeckUpdatesNotesAndKeepsReviewState() throws {
        let (_, curriculum) = try smallerBook()
        let first = CardGeneration.offline(curriculum, now: Date(timeIntervalSince1970: 1_800_000_000)).cards
        let layout = CardDeckLayout(curriculum: curriculum)
        let folder = try TemporaryFolder()
        let collection = folder.file("r.anki2")
        let v1 = folder.file("v1.apkg")
        try AnkiPackageWriter.write(first, layout: layout, to: v1.path)
        let glossaryCard = try XCTUnwrap(first.first { $0.origin == .glossary && $0.noteType == .basicReversed })
        let before = try anki(collection, [v1], review: [glossaryCard.guid])
        let reviewed = try XCTUnwrap(notes(before).first { $0["guid"] as? String == glossaryCard.guid })
        XCTAssertTrue((reviewed["cards"] as? [[String: Any]] ?? []).allSatisfy { ($0["reps"] as? Int ?? 0) >= 1 }, "\(reviewed)")

        // The glossary passage's meaning of that term is edited (as a re-read source would be).
        var edited = curriculum
        let addition = "especially as philosophers argue it"
        for u in edited.units.indices {
            for t in edited.units[u].topics.indices where edited.units[u].topics[t].stableId == glossaryCard.topicStableId {
                var topic = edited.units[u].topics[t]
                for k in topic.keyTerms.indices where topic.keyTerms[k].term == glossaryCard.front {
                    topic.keyTerms[k].definition += ", " + addition
                }
                for p in topic.passages.indices where topic.passages[p].id == glossaryCard.source.passageId {
                    topic.passages[p].text += " " + addition + "."
                }
                edited.units[u].topics[t] = topic
            }
        }
        let regenerated = CardGeneration.revise(CardGeneration.offline(edited).cards, previous: first,
                                                now: Date(timeIntervalSince1970: 1_800_000_000))
        let changed = try XCTUnwrap(regenerated.first { $0.guid == glossaryCard.guid })
        XCTAssertTrue(changed.back.hasSuffix(addition), changed.back)
        let v2 = folder.file("v2.apkg")
        try AnkiPackageWriter.write(regenerated, layout: layout, to: v2.path)

        let after = try anki(collection, [v2])
        let log = try XCTUnwrap((after["imports"] as? [[String: Any]])?.first)
        XCTAssertGreaterThanOrEqual(log["updated"] as? Int ?? 0, 1, "\(log)")
        XCTAssertEqual(after["note_count"] as? Int, Set(first.map(\.guid)).union(regenerated.map(\.guid)).count, "no note added twice")
        XCTAssertEqual(Set(notes(after).compactMap { $0["guid"] as? String }).count, after["note_count"] as? Int)
        let updated = try XCTUnwrap(notes(after).first { $0["guid"] as? String == glossaryCard.guid })
        XCTAssertEqual((updated["fields"] as? [String: String])?["Back"], HTMLText.escape(changed.back), "\(log); note \(updated); exported mod \(changed.modifiedAt.timeIntervalSince1970), before \(reviewed["mod"] ?? "")")
        let cards = updated["cards"] as? [[String: Any]] ?? []
        XCTAssertEqual(cards.count, 2, "the reverse card, made before, stays with its reviews")
        XCTAssertTrue(cards.allSatisfy { ($0["reps"] as? Int ?? 0) >= 1 && ($0["type"] as? Int ?? 0) != 0 }, "review state lost: \(cards)")
        XCTAssertGreaterThanOrEqual(after["revlog"] as? Int ?? 0, 2, "the review log is kept")
    }
}
