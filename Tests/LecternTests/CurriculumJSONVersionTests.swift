import Foundation
import XCTest
@testable import Lectern

/// `curriculum export --format json` is version 2: a topic's passages are Lectern's one passage
/// type, the very object `show DOC --json` lists (its own `id`, its speaker, offsets, timeline
/// and document), so a script reads a passage one way wherever it finds it. A version 1 file
/// (`Tests/Fixtures/curriculum-json-v1`, written by Lectern before the change) still reads,
/// and re-exported it loses nothing; a version this Lectern does not know is one clear line.
final class CurriculumJSONVersionTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    static let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/curriculum-json-v1/study.json")

    func object(_ data: Data, _ what: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], what)
    }

    /// Every topic's passages in the JSON, in reading order.
    func topicPassages(_ record: [String: Any]) -> [[String: Any]] {
        let curriculum = record["curriculum"] as? [String: Any] ?? [:]
        let units = curriculum["units"] as? [[String: Any]] ?? []
        return units.flatMap { $0["topics"] as? [[String: Any]] ?? [] }.flatMap { $0["passages"] as? [[String: Any]] ?? [] }
    }

    func testAnExportIsVersion2AndItsPassagesAreThePassagesShowLists() throws {
        try folder.write("notes/cells.md", """
            # Cells

            ## Membranes

            The cell membrane is a lipid bilayer that separates the inside of a cell from its surroundings. \
            Proteins set in the bilayer carry ions and sugars across it.

            ## Mitochondria

            Mitochondria release the energy stored in sugars and fats as ATP. \
            Their inner membrane folds into cristae that enlarge its surface.
            """)
        try folder.write("notes/lecture.srt", """
            1
            00:00:01,000 --> 00:00:06,000
            Today we look at how the cell makes its proteins.

            2
            00:00:06,500 --> 00:00:12,000
            Ribosomes read messenger RNA and join amino acids in the order it spells.

            3
            00:00:12,500 --> 00:00:18,000
            Transfer RNA brings each amino acid to the ribosome and matches it to a codon.

            """)
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        let built = try lectern("curriculum", "build", "study", "notes")
        XCTAssertEqual(built.status, 0, built.stderr)
        let export = try lectern("curriculum", "export", "study", "--format", "json", "--output", "study.json")
        XCTAssertEqual(export.status, 0, export.stderr)
        let record = try object(try Data(contentsOf: folder.file("study.json")), "study.json")
        XCTAssertEqual(record["format"] as? String, "lectern-curriculum")
        XCTAssertEqual(record["version"] as? Int, 2)

        // What `show DOC --json` lists for each of the curriculum's documents, by passage id.
        var shown: [Int: NSDictionary] = [:]
        for file in ["notes/cells.md", "notes/lecture.srt"] {
            let show = try lectern("show", file, "--json")
            XCTAssertEqual(show.status, 0, show.stderr)
            for passage in try object(Data(show.stdout.utf8), "show \(file)")["passages"] as? [[String: Any]] ?? [] {
                shown[try XCTUnwrap(passage["id"] as? Int)] = passage as NSDictionary
            }
        }
        let passages = topicPassages(record)
        XCTAssertEqual(Set(passages.compactMap { $0["documentTitle"] as? String }).count, 2, "both documents' passages are in topics")
        for passage in passages {
            let id = try XCTUnwrap(passage["id"] as? Int, "\(passage)")
            XCTAssertNil(passage["passageId"], "version 2 names a passage's own id `id`")
            XCTAssertEqual(passage["ref"] as? String, "p\(id)")
            XCTAssertEqual(passage as NSDictionary, shown[id], "p\(id) is the object show lists")
        }
        let spoken = try XCTUnwrap(passages.first { $0["timeStart"] != nil }, "the lecture's passages are in the export")
        XCTAssertNotNil(spoken["timeline"], "a transcript passage keeps its timeline: \(spoken)")
        XCTAssertEqual(spoken["documentType"] as? String, "srt", "with its document's facts")

        // It reads back to the curriculum the library holds.
        let read = try CurriculumJSONDocument.decode(try Data(contentsOf: folder.file("study.json")))
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        XCTAssertEqual(read.curriculum, try store.curriculum(named: "study"))
    }

    /// The committed version 1 file (made from corpora/ before version 2; see its README)
    /// reads: each topic's passages by the ids, texts and places the file gives, its questions
    /// whole; written again it is version 2 and every key of a version 1 passage keeps its
    /// value, `passageId` now `id`.
    func testAVersion1ExportStillReadsAndLosesNothingWrittenAgain() throws {
        let data = try Data(contentsOf: Self.fixture)
        let v1 = try object(data, "the v1 fixture")
        XCTAssertEqual(v1["version"] as? Int, 1, "the fixture is a version 1 file")
        let before = topicPassages(v1)
        XCTAssertGreaterThan(before.count, 20)
        XCTAssertTrue(before.contains { $0["timeStart"] != nil } && before.contains { $0["pageStart"] != nil },
                      "the fixture has transcript and PDF passages")

        let read = try CurriculumJSONDocument.decode(data, name: "study.json")
        let passages = read.curriculum.topics.flatMap(\.passages)
        XCTAssertEqual(passages.map { Int($0.id) }, before.map { $0["passageId"] as? Int ?? -1 })
        XCTAssertEqual(passages.map(\.text), before.map { $0["text"] as? String ?? "" })
        XCTAssertEqual(passages.map(\.pageStart), before.map { $0["pageStart"] as? Int })
        XCTAssertEqual(passages.map(\.timeStart), before.map { $0["timeStart"] as? Double })
        XCTAssertTrue(passages.allSatisfy { $0.documentTitle == nil }, "version 1 held no document facts")
        let questions = (v1["assessments"] as? [String: [[String: Any]]] ?? [:]).mapValues { $0.count }
        XCTAssertGreaterThan(questions.values.reduce(0, +), 0, "the fixture has the cards as questions")
        XCTAssertEqual(read.assessments.mapValues(\.count), questions)

        let again = try object(try CurriculumJSONExporter().export(read.curriculum, assessments: read.assessments), "re-export")
        XCTAssertEqual(again["version"] as? Int, 2)
        let after = topicPassages(again)
        XCTAssertEqual(after.count, before.count)
        for (old, new) in zip(before, after) {
            var expected = old
            expected["id"] = expected.removeValue(forKey: "passageId")
            XCTAssertEqual(new as NSDictionary, expected as NSDictionary)
        }
    }

    func testAVersionThisLecternDoesNotKnowIsOneLine() throws {
        var v1 = try object(try Data(contentsOf: Self.fixture), "the v1 fixture")
        v1["version"] = 3
        XCTAssertThrowsError(try CurriculumJSONDocument.decode(try JSONSerialization.data(withJSONObject: v1), name: "later.json")) { error in
            XCTAssertEqual("\(error)", "later.json: curriculum JSON of version 3; this Lectern reads versions 1–2 (a newer Lectern wrote it)")
        }
        XCTAssertThrowsError(try CurriculumJSONDocument.decode(Data(#"{"cards": []}"#.utf8), name: "deck.json")) { error in
            XCTAssertEqual("\(error)", "deck.json: not a Lectern curriculum (`lectern curriculum export --format json` writes one)")
        }
    }
}
