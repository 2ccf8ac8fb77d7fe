import Foundation
import GRDB
import XCTest
@testable import Lectern

/// A run's report is typed: `runs --json` keeps every key it printed (counts with `<stage>_ms`
/// and `llm.*`) and gains `stages`, `model` and `outputs`; the files a run wrote are in
/// `outputs` with their format and SHA-256, no longer `wrote:/path` keys in `counts`; `runs show
/// N --json` prints the same object. A library whose runs and settings hold the old keys reads
/// the same outputs once opened (v9-run-outputs), and its next run still finds them up to date.
final class RunReportTests: CommandTestCase {
    func writePipeline() throws {
        for note in 0..<3 {
            try folder.write("notes/n\(note).md", """
                # Signals \(note)

                Entropy is the average information that a source of messages produces per symbol.
                A channel carries a signal from a sender to a receiver through noise, and its capacity limits the rate.

                ## Codes

                A code maps each symbol to a word of bits; redundancy lets a decoder correct errors of the channel.
                """)
        }
        try folder.write("p.toml", """
            [[source]]
            path = "notes"
            [[curriculum]]
            name = "signals"
            sources = ["notes"]
            [[deck]]
            curriculum = "signals"
            format = "tsv"
            output = "out/signals.tsv"
            [[export]]
            curriculum = "signals"
            format = "md"
            output = "out/signals.md"
            """)
    }

    func runsJSON() throws -> [[String: Any]] {
        let listed = try runLectern(["runs", "--json"], in: folder.url)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    }

    /// The SHA-256 of a file as coreutils computes it: an oracle outside Lectern.
    func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    func testRunsJSONListsWrittenFilesAsOutputsAndStagesAsObjects() throws {
        try writePipeline()
        let result = try runLectern(["run", "p.toml"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let run = try XCTUnwrap(try runsJSON().first)
        let counts = try XCTUnwrap(run["counts"] as? [String: Int])
        XCTAssertEqual(counts.keys.filter { $0.hasPrefix("wrote:") }, [], "paths are no longer counts")
        XCTAssertEqual(counts["outputs_written"], 2)
        let tsv = folder.file("out/signals.tsv").path, md = folder.file("out/signals.md").path
        let outputs = try XCTUnwrap(run["outputs"] as? [[String: Any]])
        XCTAssertEqual(outputs.map { $0["path"] as? String }, [md, tsv])
        XCTAssertEqual(outputs.map { $0["format"] as? String }, ["md", "tsv"])
        XCTAssertEqual(outputs.map { $0["contentHash"] as? String }, [try sha256sum(md), try sha256sum(tsv)])
        XCTAssertEqual(outputs.map { $0["written"] as? Bool }, [true, true])
        // Each stage once, in the work's order, with the milliseconds `counts` keeps as `<stage>_ms`.
        let stages = try XCTUnwrap(run["stages"] as? [[String: Any]])
        let names = stages.compactMap { $0["stage"] as? String }
        XCTAssertEqual(names.first, "extract")
        XCTAssertTrue(names.contains("cards") && names.contains("export"), "\(names)")
        for stage in stages {
            let name = try XCTUnwrap(stage["stage"] as? String)
            XCTAssertEqual(stage["milliseconds"] as? Int, counts[name + "_ms"], name)
        }
        XCTAssertNil(run["model"], "no model was asked")

        let shown = try runLectern(["runs", "show", "1", "--json"], in: folder.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let one = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], shown.stdout)
        XCTAssertEqual(one as NSDictionary, run as NSDictionary)
        let text = try runLectern(["runs", "show", "1"], in: folder.url)
        XCTAssertTrue(text.stdout.contains("outputs  2 written"), text.stdout)
        XCTAssertTrue(text.stdout.contains("    \(tsv)\n"), text.stdout)
    }

    func testALibraryWithTheOldKeysKeepsItsOutputsAndTheyStayUpToDate() throws {
        try writePipeline()
        XCTAssertEqual(try runLectern(["run", "p.toml"], in: folder.url).status, 0)
        let tsv = folder.file("out/signals.tsv").path, md = folder.file("out/signals.md").path
        // Back to what a library before v9 held: the paths as counts of the run, each path's
        // newest "format|hash|build key|cards basis" and the cards basis as settings.
        let library = try DatabaseQueue(path: folder.file("lectern.db").path)
        try library.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT path, format, content_hash, build_key, cards_basis FROM run_outputs")
            XCTAssertEqual(rows.count, 2)
            for row in rows {
                let path: String = row["path"]
                try db.execute(sql: "UPDATE runs SET counts = json_set(counts, '$.\"wrote:' || ? || '\"', 1) WHERE id = 1", arguments: [path])
                let value = [row["format"], row["content_hash"], row["build_key"], row["cards_basis"]].map { ($0 as String?) ?? "" }.joined(separator: "|")
                try db.execute(sql: "INSERT INTO settings(key, value) VALUES (?, ?)", arguments: ["wrote:" + path, value])
            }
            try db.execute(sql: "INSERT INTO settings(key, value) SELECT 'cards-basis:' || curriculum, build_key FROM card_bases")
            try db.execute(sql: "DROP TABLE run_outputs; DROP TABLE card_bases")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v9-run-outputs'")
        }
        try library.close()

        let run = try XCTUnwrap(try runsJSON().first)
        XCTAssertEqual((run["counts"] as? [String: Int])?.keys.filter { $0.hasPrefix("wrote:") }, [])
        XCTAssertEqual((run["outputs"] as? [[String: Any]])?.map { $0["path"] as? String }, [md, tsv])
        let settings = try DatabaseQueue(path: folder.file("lectern.db").path).read { db in
            try String.fetchAll(db, sql: "SELECT key FROM settings WHERE key LIKE 'wrote:%' OR key LIKE 'cards-basis:%'")
        }
        XCTAssertEqual(settings, [], "the old keys are gone from the settings")

        // Nothing changed: the next run makes no cards and writes no file.
        let again = try runLectern(["run", "p.toml", "--json"], in: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        let summary = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(again.stdout.utf8))
        XCTAssertEqual(summary.outputsWritten, [])
        let second = try XCTUnwrap(try runsJSON().first)
        let counts = try XCTUnwrap(second["counts"] as? [String: Int])
        XCTAssertEqual(counts["cards_unchanged"], 1, "the cards basis was carried over: \(counts)")
        XCTAssertEqual(counts["outputs_unchanged"], 2)
    }
}
