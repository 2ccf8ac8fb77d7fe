import XCTest

/// Options of `curriculum find` that only the shared corpus's tests reached, on generated
/// notes: `-k` and `--curriculum` choose how many topics and whose.
final class FindOptionsCLITests: CommandTestCase {
    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    func writeNotes(_ folderName: String, _ subjects: [String]) throws {
        for subject in subjects {
            var text = "# \(subject.capitalized)\n\n"
            for part in 0..<2 {
                text += "## \(subject.capitalized) part \(part)\n\n\(subject.capitalized) carries signal through a noisy channel in part \(part). "
                    + "The note on \(subject) says that noise lowers what the channel carries per symbol.\n\n"
            }
            try folder.write("\(folderName)/\(subject).md", text)
        }
    }

    func testCurriculumFindTakesKAndACurriculum() throws {
        try writeNotes("info", ["entropy", "capacity"])
        try writeNotes("radio", ["antenna", "modulation"])
        XCTAssertEqual(try lectern(["ingest", "info", "radio"]).status, 0)
        XCTAssertEqual(try lectern(["curriculum", "build", "info", "info"]).status, 0)
        XCTAssertEqual(try lectern(["curriculum", "build", "radio", "radio"]).status, 0)

        func find(_ extra: [String]) throws -> [[String: Any]] {
            let result = try lectern(["curriculum", "find", "noise in a channel", "--json", "--mode", "keyword"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
        }
        let all = try find([])
        XCTAssertEqual(Set(all.compactMap { $0["curriculum"] as? String }), ["info", "radio"], "both curricula hold the words")
        XCTAssertGreaterThan(all.count, 1)
        XCTAssertEqual(try find(["-k", "1"]).count, 1)
        let radio = try find(["--curriculum", "radio"])
        XCTAssertFalse(radio.isEmpty)
        XCTAssertEqual(Set(radio.compactMap { $0["curriculum"] as? String }), ["radio"])
    }
}
