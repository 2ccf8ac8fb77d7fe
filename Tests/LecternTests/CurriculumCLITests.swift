import XCTest
@testable import Lectern

/// `lectern curriculum build | list | show | find | rm` and `search --curriculum --topic` as a
/// user runs them, on the project's notes: a recorded run with counts and JSON events, an
/// unchanged rebuild said so, the tree with study time, objectives and sources, topics found
/// for a question, a search kept to one topic's passages, and clear lines for bad names.
final class CurriculumCLITests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    func testBuildShowFindSearchAndRemoveACurriculum() throws {
        let notes = TestPaths.corpora.appendingPathComponent("notes")
        XCTAssertEqual(try lectern("ingest", notes.path, "--embedder", "hashing").status, 0)

        let built = try lectern("curriculum", "build", "study", notes.path, "--events", "json")
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(built.stdout.hasPrefix("study: 3 units,"), built.stdout)
        let events = built.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(events.first?["event"] as? String, "run_started")
        XCTAssertEqual(events.last?["event"] as? String, "run_finished")
        let counts = try XCTUnwrap(events.last?["counts"] as? [String: Int])
        XCTAssertEqual(counts["units"], 3)
        XCTAssertGreaterThan(counts["topics"] ?? 0, 3)
        XCTAssertTrue(try lectern("runs").stdout.contains("curriculum build"))

        let again = try lectern("curriculum", "build", "study", notes.path)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("study: unchanged (3 units"), again.stdout)

        let list = try JSONDecoder().decode([CurriculumSummary].self, from: Data(try lectern("curriculum", "list", "--json").stdout.utf8))
        XCTAssertEqual(list.map(\.name), ["study"])
        XCTAssertEqual(list.first?.units, 3)

        let record = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern("curriculum", "show", "study", "--json").stdout.utf8))
        XCTAssertEqual(record.units.map(\.title), ["Differentiation: the chain rule", "Photosynthesis", "The Printing Press and the Spread of Ideas"])
        let calvin = try XCTUnwrap(record.topics.first { $0.title == "The Calvin cycle" })

        let shown = try lectern("curriculum", "show", "study")
        XCTAssertTrue(shown.stdout.contains("The Calvin cycle"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("[\(calvin.stableId)]"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("from: Photosynthesis"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("• "), "objectives are listed")
        let units = try lectern("curriculum", "show", "study", "--depth", "1").stdout
        XCTAssertFalse(units.contains("The Calvin cycle"))
        // Units only: one per line under the header, no blank line between them.
        let unitLines = units.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("1. ") }
        XCTAssertFalse(unitLines.isEmpty, units)
        XCTAssertFalse(unitLines.dropLast().contains(""), units)

        let found = try lectern("curriculum", "find", "what does rubisco fix in the Calvin cycle", "--json", "--mode", "keyword")
        let hits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]], found.stderr)
        XCTAssertEqual(hits.first?["title"] as? String, "The Calvin cycle")

        // A search kept to one topic finds only that topic's passages.
        let searched = try lectern("search", "ATP", "--curriculum", "study", "--topic", String(calvin.stableId.prefix(6)), "--json")
        XCTAssertEqual(searched.status, 0, searched.stderr)
        let passages = try JSONDecoder().decode([SearchHit].self, from: Data(searched.stdout.utf8))
        XCTAssertFalse(passages.isEmpty)
        XCTAssertTrue(passages.allSatisfy { hit in calvin.passages.contains { $0.id == hit.passageId } })

        let missing = try lectern("curriculum", "show", "nothing")
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "lectern: nothing: no curriculum of this name (see `lectern curriculum list`)\n")
        let noSource = try lectern("curriculum", "build", "other", "no/such/folder")
        XCTAssertNotEqual(noSource.status, 0)
        XCTAssertTrue(noSource.stderr.contains("no/such/folder: not in the library"), noSource.stderr)

        XCTAssertEqual(try lectern("curriculum", "rm", "study").stdout, "removed study\n")
        XCTAssertEqual(try JSONDecoder().decode([CurriculumSummary].self, from: Data(try lectern("curriculum", "list", "--json").stdout.utf8)), [])
        XCTAssertEqual(try lectern("curriculum", "rm", "study").status, 1)
    }
}
