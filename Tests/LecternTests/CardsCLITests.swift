import Foundation
import XCTest
@testable import Lectern

/// `lectern cards …` on a library holding the shared OpenStax book and its curriculum:
/// generate (a recorded run), stats with rejections and duplicates, list with places, export
/// in every format, remove; and the store keeps cards across a regeneration.
final class CardsCLITests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// The book's library with its curriculum saved, copied to ./lectern.db.
    func bookLibrary() throws -> BookCurriculum {
        let book = try BookCurriculum.load()
        if try book.store.curriculum(named: "philosophy") == nil { try book.store.saveCurriculum(book.curriculum) }
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("no sqlite3 command here") }
        sqlite.arguments = [book.folder.file("book.db").path, "VACUUM INTO '\(folder.file("lectern.db").path)'"]
        try sqlite.run()
        sqlite.waitUntilExit()
        XCTAssertEqual(sqlite.terminationStatus, 0)
        return book
    }

    func testGenerateStatsListExportAndRemove() throws {
        let book = try bookLibrary()
        var result = try lectern("cards", "generate", "philosophy")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(" notes ("), result.stdout)
        XCTAssertTrue(result.stdout.contains("rejected"), result.stdout)
        XCTAssertTrue(result.stdout.contains("duplicates removed"), result.stdout)

        result = try lectern("cards", "stats", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let stats = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let notes = try XCTUnwrap(stats["notes"] as? Int)
        XCTAssertGreaterThan(notes, 300)
        let byType = try XCTUnwrap(stats["byType"] as? [String: Int])
        XCTAssertEqual(Set(byType.keys), ["basic", "basic-reversed", "cloze"])
        XCTAssertNotNil(stats["rejected"] as? Int)
        XCTAssertNotNil(stats["exactDuplicates"] as? Int)
        XCTAssertGreaterThanOrEqual((stats["topics"] as? [Any])?.count ?? 0, 40)

        // Every generate is a recorded run with its counts.
        result = try lectern("runs", "--json")
        XCTAssertTrue(result.stdout.contains("cards generate"), result.stdout.prefix(400).description)

        result = try lectern("cards", "list", "--curriculum", "philosophy", "--json")
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.count, notes)
        let glossary = try XCTUnwrap(listed.first { ($0["origin"] as? String) == "glossary" })
        XCTAssertNotNil(glossary["passageId"] as? Int)
        XCTAssertTrue((glossary["deck"] as? String ?? "").hasPrefix("Introduction to Philosophy 2e::"), "\(glossary)")
        XCTAssertTrue((glossary["source"] as? String ?? "").hasPrefix("Introduction to Philosophy"), "\(glossary)")

        for format in ["apkg", "tsv", "csv", "md", "json"] {
            result = try lectern("cards", "export", "philosophy", "--format", format, "-o", "deck.\(format)")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.hasPrefix("wrote deck.\(format): \(notes) notes"), result.stdout)
        }
        XCTAssertEqual(try Data(contentsOf: folder.file("deck.apkg")).prefix(2), Data("PK".utf8))
        XCTAssertTrue(try String(contentsOf: folder.file("deck.csv"), encoding: .utf8).hasPrefix("#separator:comma\n#html:true\n"))
        XCTAssertTrue(try String(contentsOf: folder.file("deck.md"), encoding: .utf8).hasPrefix("# Introduction to Philosophy 2e\n"))

        // The curriculum's UMCF export carries the cards as each topic's text_entry assessments.
        result = try lectern("curriculum", "export", "philosophy", "-o", "philosophy.umcf")
        XCTAssertEqual(result.status, 0, result.stderr)
        let umcf = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("philosophy.umcf"))) as? [String: Any])
        var assessments: [[String: Any]] = []
        func collect(_ node: [String: Any]) {
            assessments += node["assessments"] as? [[String: Any]] ?? []
            for child in node["children"] as? [[String: Any]] ?? [] { collect(child) }
        }
        for node in umcf["content"] as? [[String: Any]] ?? [] { collect(node) }
        XCTAssertEqual(assessments.count, notes)
        XCTAssertTrue(assessments.allSatisfy { $0["type"] as? String == "text_entry" && $0["question"] is String && $0["correctAnswer"] is String })
        XCTAssertFalse(assessments.contains { ($0["question"] as? String ?? "").contains("{{c1::") }, "a cloze is asked with a blank")
        try UMCFCheck.assertValid([folder.file("philosophy.umcf")])

        result = try lectern("cards", "export", "nosuch", "-o", "x.apkg")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("nosuch"), result.stderr)
        result = try lectern("cards", "export", "philosophy", "--format", "pdf", "-o", "x.pdf")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("The value 'pdf' is invalid for '--format <format>'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("'apkg', 'tsv', 'csv', 'md' or 'json'"), result.stderr)

        // Generating one topic again leaves the others' cards; GUIDs hold.
        // (A topic with cards: the checks leave some topics of the generated book without one.)
        let topic = try XCTUnwrap(book.curriculum.topics.first { topic in listed.contains { $0["topic"] as? String == topic.stableId } })
        let before = Set(listed.compactMap { $0["guid"] as? String })
        result = try lectern("cards", "generate", "philosophy", "--topic", topic.stableId)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("0 new, 0 changed"), result.stdout)
        result = try lectern("cards", "list", "--json")
        let again = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(Set(again.compactMap { $0["guid"] as? String }), before)

        result = try lectern("cards", "rm", "philosophy", "--topic", topic.stableId)
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try lectern("cards", "list", "--curriculum", "philosophy", "--topic", topic.stableId, "--json")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any])?.count, 0, result.stdout)
        result = try lectern("cards", "stats")
        let removed = again.filter { $0["topic"] as? String == topic.stableId }.count
        XCTAssertGreaterThan(removed, 0)
        XCTAssertTrue(result.stdout.hasPrefix("philosophy: \(notes - removed) notes"), result.stdout)
    }
}
