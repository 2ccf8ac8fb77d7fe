import Foundation
import XCTest
@testable import Lectern

/// A library made before the schema changed (`Tests/Fixtures/library-v1`) keeps working: the
/// new migrations convert what it stores, without reading its sources again or re-embedding.
final class LibraryUpgradeTests: XCTestCase {
    static let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/library-v1")
    /// Where the fixture was made: its documents' URIs and paths name this folder.
    static let madeIn = "/tmp/lectern-library-v1"
    /// A folder of this run's own, so that two suites running at once do not share one; the
    /// copied library's URIs and paths are moved to it, as if it had been made there.
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.resolvingSymlinksInPath()
            .appendingPathComponent("lectern-library-v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("corpora"), to: home.appendingPathComponent("corpora"))
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("lectern.sqlite"), to: home.appendingPathComponent("lectern.sqlite"))
        try python("""
            c = sqlite3.connect(sys.argv[1])
            for table, column in [("sources", "uri"), ("documents", "uri"), ("documents", "path")]:
                c.execute(f"UPDATE {table} SET {column} = replace({column}, ?, ?)", (sys.argv[2], sys.argv[3]))
            c.commit(); c.close()
            """, [Self.madeIn, home.path])
    }

    override func tearDownWithError() throws {
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments + ["--db", "lectern.sqlite"], in: home)
    }

    /// Runs a Python `script` (with `sqlite3`, `json` and `sys` imported) on the copied library,
    /// its path the first argument: the library as SQLite holds it, read without Lectern.
    @discardableResult
    func python(_ script: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3, json, sys\n" + script, home.appendingPathComponent("lectern.sqlite").path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return data
    }

    /// The documents' skip keys as SQLite holds them, by URI.
    func storedKeys(_ query: String) throws -> [String: String] {
        let data = try python("print(json.dumps(dict(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())))", [query])
        return try JSONSerialization.jsonObject(with: data) as? [String: String] ?? [:]
    }

    func testAnOldLibraryIsUpgradedInPlaceAndAnswersAsBefore() throws {
        let oldKeys = try storedKeys("SELECT uri, skip_key FROM documents")
        XCTAssertEqual(oldKeys.count, 11)
        XCTAssertTrue(oldKeys.keys.allSatisfy { $0.hasPrefix("file://" + home.path + "/corpora/") }, "the library now lives in this run's folder: \(oldKeys.keys)")

        // The first command that opens it migrates it; nothing is read again or re-embedded.
        let stats = try JSONSerialization.jsonObject(with: Data(try lectern(["stats", "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(stats?["documents"] as? Int, 11)
        XCTAssertEqual(stats?["passages"] as? Int, 34)
        XCTAssertEqual(stats?["blocks"] as? Int, 158)
        XCTAssertEqual(stats?["vectors"] as? Int, 34)
        XCTAssertEqual(stats?["tokens"] as? Int, 3957)
        XCTAssertEqual(stats?["embedder"] as? String, "hashing (feature-hashing, 384 dimensions)")

        // The skip key is now its two parts, exactly the old `PASSAGES|EMBEDDER` split: an ingest by
        // a Lectern whose readers and chunker are those of the old library finds every document unchanged.
        let newKeys = try storedKeys("SELECT uri, passage_key || '|' || embedder_key FROM documents")
        XCTAssertEqual(newKeys, oldKeys)

        // Every search answers exactly what it answered before the upgrade.
        // The answers name the folder the library was made in; here that folder is `home`.
        let answers = try String(contentsOf: Self.fixture.appendingPathComponent("expected-search.json"), encoding: .utf8)
            .replacingOccurrences(of: Self.madeIn + "/", with: home.path + "/")
        let expected = try JSONSerialization.jsonObject(with: Data(answers.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(expected.count, 6)
        for search in expected {
            let arguments = try XCTUnwrap(search["arguments"] as? [String])
            let result = try lectern(arguments + ["--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            // Fields added since (a hit's link, its page label, its `ref`) are left out of the comparison.
            let added: Set<String> = ["link", "pageLabel", "bm25", "cosine", "weak", "ref"]
            // A score is now on one scale for every query (Relevance); the cosine it was is kept as `cosine`.
            let cosines = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []).map { $0["cosine"] as? Double }
            var hits = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? [])
                .map { $0.filter { !added.contains($0.key) } }
            var before = search["hits"] as? [[String: Any]] ?? []
            if arguments.contains("keyword") {
                // Keyword mode now reports the BM25 score it ranks by, not 1/rank: the same passages, in the same order.
                let scores = hits.compactMap { $0["score"] as? Double }
                XCTAssertTrue(scores.allSatisfy { $0 > 0 } && zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 }, "\(scores)")
                hits = hits.map { $0.filter { $0.key != "score" } }
                before = before.map { $0.filter { $0.key != "score" } }
            }
            if arguments.contains("semantic") {
                let scores = before.map { $0["score"] as? Double }
                XCTAssertEqual(cosines.count, scores.count)
                for (cosine, score) in zip(cosines, scores) { XCTAssertEqual(cosine ?? -9, score ?? 9, accuracy: 1e-6) }
                hits = hits.map { $0.filter { $0.key != "score" } }
                before = before.map { $0.filter { $0.key != "score" } }
            }
            if !arguments.contains("--mode") {
                // Hybrid search now combines the two scores rather than their reciprocal ranks (issue 17), so
                // its order is its own; the upgraded index and vectors rank each passage as before.
                XCTAssertEqual(hits.count, before.count)
                let ranks = Dictionary(before.map { ($0["passageId"] as? Int ?? 0, [$0["keywordRank"] as? Int, $0["semanticRank"] as? Int]) },
                                       uniquingKeysWith: { first, _ in first })
                var shared = 0
                for hit in hits {
                    guard let old = ranks[hit["passageId"] as? Int ?? 0] else { continue }
                    shared += 1
                    XCTAssertEqual([hit["keywordRank"] as? Int, hit["semanticRank"] as? Int], old, "lectern \(arguments.joined(separator: " "))")
                }
                XCTAssertGreaterThanOrEqual(shared, hits.count - 2, "lectern \(arguments.joined(separator: " "))")
                continue
            }
            XCTAssertEqual(hits as NSArray, before as NSArray, "lectern \(arguments.joined(separator: " "))")
        }

        // The runs, their failures and the summaries made before are still there.
        let runs = try JSONSerialization.jsonObject(with: Data(try lectern(["runs", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(runs.map { $0["command"] as? String }, ["summarize", "ingest", "ingest"])
        XCTAssertEqual(runs.map { $0["status"] as? String }, ["succeeded", "partial", "succeeded"])
        let failures = runs[1]["failures"] as? [[String: Any]] ?? []
        XCTAssertEqual(failures.first?["severity"] as? String, "error")
        XCTAssertEqual(failures.first?["reason"] as? String, "no such file or directory")
        let show = try lectern(["show", "corpora/notes/photosynthesis.md"])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("extractive"), "the summary made before the upgrade is shown: \(show.stdout)")

        // This release cuts passages differently (chunker 2: merged sections keep their headings,
        // lead-ins stay with their lists), so the next ingest re-cuts each document once, in place,
        // and the one after it finds everything unchanged.
        let ingest = try lectern(["ingest", "corpora"])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertTrue(ingest.stdout.contains("11 stored"), ingest.stdout)
        let again = try lectern(["ingest", "corpora"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0 stored (0 passages), 11 unchanged"), again.stdout)
        let after = try JSONSerialization.jsonObject(with: Data(try lectern(["stats", "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(after?["documents"] as? Int, 11, "re-cutting replaced documents, it added none")
    }
}
