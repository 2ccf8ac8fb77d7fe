import Foundation
import XCTest
@testable import Lectern

/// A library made before the schema changed (`Tests/Fixtures/library-v1`) keeps working: the
/// new migrations convert what it stores, without reading its sources again or re-embedding.
final class LibraryUpgradeTests: XCTestCase {
    static let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/library-v1")
    /// Where the fixture was made: its documents' URIs and paths name this folder.
    static let home = URL(fileURLWithPath: "/tmp/lectern-library-v1")

    override func setUpWithError() throws {
        try? FileManager.default.removeItem(at: Self.home)
        try FileManager.default.createDirectory(at: Self.home, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("corpora"), to: Self.home.appendingPathComponent("corpora"))
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("lectern.sqlite"), to: Self.home.appendingPathComponent("lectern.sqlite"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: Self.home)
    }

    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments + ["--db", "lectern.sqlite"], in: Self.home)
    }

    func testAnOldLibraryIsUpgradedAndItsDocumentsStayUnchanged() throws {
        let ingest = try lectern(["ingest", "corpora", "--events", "json"])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let events = ingest.stderr.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let unchanged = events.filter { $0["event"] as? String == "unchanged" }.compactMap { $0["input"] as? String }
        XCTAssertEqual(unchanged.count, 11, "every document is reported unchanged: \(ingest.stderr)")
        XCTAssertFalse(events.contains { ["stored", "failed", "warning"].contains($0["event"] as? String) }, ingest.stderr)

        let stats = try JSONSerialization.jsonObject(with: Data(try lectern(["stats", "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(stats?["documents"] as? Int, 11)
        XCTAssertEqual(stats?["passages"] as? Int, 34)
        XCTAssertEqual(stats?["blocks"] as? Int, 158)
        XCTAssertEqual(stats?["vectors"] as? Int, 34)
        XCTAssertEqual(stats?["tokens"] as? Int, 3957)
        XCTAssertEqual(stats?["embedder"] as? String, "hashing (feature-hashing, 384 dimensions)")

        // Every search answers exactly what it answered before the upgrade.
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixture.appendingPathComponent("expected-search.json"))) as? [[String: Any]] ?? []
        XCTAssertEqual(expected.count, 6)
        for search in expected {
            let arguments = try XCTUnwrap(search["arguments"] as? [String])
            let result = try lectern(arguments + ["--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let hits = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? NSArray
            XCTAssertEqual(hits, search["hits"] as? NSArray, "lectern \(arguments.joined(separator: " "))")
        }

        // The runs, their failures and the summaries made before are still there.
        let runs = try JSONSerialization.jsonObject(with: Data(try lectern(["runs", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(runs.map { $0["command"] as? String }, ["ingest", "summarize", "ingest", "ingest"])
        XCTAssertEqual(runs.map { $0["status"] as? String }, ["succeeded", "succeeded", "partial", "succeeded"])
        let failures = runs[2]["failures"] as? [[String: Any]] ?? []
        XCTAssertEqual(failures.first?["severity"] as? String, "error")
        XCTAssertEqual(failures.first?["reason"] as? String, "no such file or directory")
        let show = try lectern(["show", "corpora/notes/photosynthesis.md"])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("extractive"), "the summary made before the upgrade is shown: \(show.stdout)")

        // A second ingest after the upgrade is as quiet.
        let again = try lectern(["ingest", "corpora"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0 stored (0 passages), 11 unchanged"), again.stdout)
    }
}
