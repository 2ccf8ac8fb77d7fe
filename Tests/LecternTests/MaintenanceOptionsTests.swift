import Foundation
import XCTest
@testable import Lectern

/// Options of the upkeep commands no other test ran without ../shared: `prune --dry-run`,
/// `reembed --batch`, `embed --batch`, `curriculum build --all` and `doctor --json`, on copies of
/// corpora/'s notes (a second each).
final class MaintenanceOptionsTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    func sourceCount() throws -> Int {
        let listed = try lectern("sources", "--json")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any]).count
    }

    /// The notes copied into notes/ and ingested.
    func ingestNotes() throws {
        for name in ["chain-rule.md", "photosynthesis.md", "printing-press.txt"] {
            try folder.write("notes/" + name, Data(contentsOf: TestPaths.corpora.appendingPathComponent("notes/" + name)))
        }
        let ingest = try lectern("ingest", "notes")
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
    }

    /// `prune --dry-run` names the document whose file is gone and removes nothing; `prune` then
    /// removes it and only it.
    func testPruneDryRunListsWithoutRemoving() throws {
        try ingestNotes()
        try FileManager.default.removeItem(at: folder.file("notes/chain-rule.md"))
        let plan = try lectern("prune", "--dry-run", "--json")
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String])
        XCTAssertEqual(listed.count, 1)
        XCTAssertTrue(listed.first?.hasSuffix("/notes/chain-rule.md") == true, "\(listed)")
        let text = try lectern("prune", "--dry-run")
        XCTAssertTrue(text.stdout.hasPrefix("would remove file://"), text.stdout)
        XCTAssertEqual(try sourceCount(), 3, "a dry run removes nothing")
        XCTAssertEqual(try lectern("prune").status, 0)
        XCTAssertEqual(try sourceCount(), 2)
        XCTAssertEqual(try lectern("prune", "--dry-run").stdout, "nothing to prune\n")
    }

    /// `reembed --batch 2` embeds every passage again, two to a transaction, and search still
    /// finds them; `embed --batch` gives the same vectors whatever the batch.
    func testBatchSizesChangeTransactionsNotVectors() throws {
        try ingestNotes()
        let reembedded = try lectern("reembed", "--embedder", "hashing", "--batch", "2")
        XCTAssertEqual(reembedded.status, 0, reembedded.stderr)
        XCTAssertTrue(reembedded.stdout.hasPrefix("17 passages now use hashing"), reembedded.stdout)
        let search = try lectern("search", "chlorophyll absorbs light", "--mode", "semantic", "-k", "1", "--json")
        XCTAssertTrue(search.stdout.contains("photosynthesis.md"), search.stdout)

        let lines = try folder.write("lines.txt", "first passage\nsecond passage about cells\nthird one\n")
        func embed(batch: String) throws -> [[Double]] {
            let process = Process()
            process.executableURL = TestPaths.lecternBinary
            process.arguments = ["embed", "--embedder", "hashing", "--batch", batch, "--json"]
            process.currentDirectoryURL = folder.url
            process.environment = lecternEnvironment(in: folder.url)
            process.standardInput = try FileHandle(forReadingFrom: lines)
            let result = try capture(process)
            XCTAssertEqual(result.status, 0, result.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(object["batch"] as? Int, Int(batch))
            return try XCTUnwrap(object["vectors"] as? [[Double]])
        }
        let one = try embed(batch: "1"), three = try embed(batch: "3")
        XCTAssertEqual(one.count, 3)
        XCTAssertEqual(one, three)
    }

    /// `curriculum build --all` takes every document of the library: a unit for each.
    func testCurriculumBuildAllTakesEveryDocument() throws {
        try ingestNotes()
        let built = try lectern("curriculum", "build", "everything", "--all")
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(built.stdout.hasPrefix("everything: 3 units, "), built.stdout)
        XCTAssertTrue(built.stdout.contains("from 3 sources"), built.stdout)
    }

    /// `doctor --json`: one object per check, the required libraries found.
    func testDoctorJSONNamesEachCheck() throws {
        let doctor = try lectern("doctor", "--json")
        let checks = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [[String: Any]], doctor.stdout + doctor.stderr)
        let names = checks.compactMap { $0["name"] as? String }
        XCTAssertEqual(names.count, checks.count)
        for library in ["poppler-glib", "libxml2"] {
            let check = try XCTUnwrap(checks.first { $0["name"] as? String == library }, "\(names)")
            XCTAssertEqual(check["ok"] as? Bool, true, "\(check)")
            XCTAssertEqual(check["required"] as? Bool, true)
        }
    }
}
