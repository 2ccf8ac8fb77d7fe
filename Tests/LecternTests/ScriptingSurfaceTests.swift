import XCTest
@testable import Lectern

/// One scripting surface: `--json` on the command that prints the result (a parent's flag
/// does not swallow a subcommand's), spelled the same everywhere.
final class ScriptingSurfaceTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    func testRunsShowJSONIsTheRunsObjectForOneRun() throws {
        try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion makes ATP by oxidative phosphorylation.\n")
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        let listed = try lectern("runs", "--json")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let runs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(runs.count, 1)

        let shown = try lectern("runs", "show", "1", "--json")
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let one = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], "JSON, not text: \(shown.stdout)")
        XCTAssertEqual(one as NSDictionary, runs[0] as NSDictionary)
        XCTAssertEqual(try lectern("runs", "list", "-n", "1", "--json").stdout, listed.stdout, "`runs` is `runs list`")
        XCTAssertTrue(try lectern("runs", "show", "1").stdout.hasPrefix("run #1: ingest"))
    }

    func testContextTakesJSONLikeEveryOtherCommand() throws {
        try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion makes ATP by oxidative phosphorylation.\n")
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        let flag = try lectern("context", "mitochondrion ATP", "--json")
        XCTAssertEqual(flag.status, 0, flag.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(flag.stdout.utf8)) as? [String: Any], flag.stdout)
        XCTAssertEqual(flag.stdout, try lectern("context", "mitochondrion ATP", "--format", "json").stdout)
    }
}
