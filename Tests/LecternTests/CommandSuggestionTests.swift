import XCTest
@testable import Lectern

/// A mistyped command gets one line with the commands it is a slip away from, and exit 2.
final class CommandSuggestionTests: CommandTestCase {
    func testAMistypedCommandGetsDidYouMean() throws {
        var result = try runLectern(["serach", "photosynthesis"], in: folder.url)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "lectern: 'serach' is not a command: did you mean 'search'?\n")

        result = try runLectern(["curriculum", "shwo", "biology"], in: folder.url)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "lectern curriculum: 'shwo' is not a command: did you mean 'show'?\n")

        result = try runLectern(["cards", "exprot", "biology", "-o", "x.apkg"], in: folder.url)
        XCTAssertEqual(result.stderr, "lectern cards: 'exprot' is not a command: did you mean 'export'?\n")

        result = try runLectern(["zebra"], in: folder.url)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "lectern: 'zebra' is not a command: `lectern --help` lists them\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "nothing is made")
    }

    func testOtherUsageErrorsAreUnchanged() throws {
        let result = try runLectern(["stats", "--bogus"], in: folder.url)
        XCTAssertEqual(result.status, 2)
        XCTAssertFalse(result.stderr.contains("is not a command"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Unknown option '--bogus'"), result.stderr)
    }
}
