import Foundation
import GRDB
import XCTest
@testable import Lectern

/// `lectern migrate`: corpora/ ingested into a library file, copied into PostgreSQL (a real
/// PostgreSQL 18 with pgvector, Support/PostgresServer) and back into another file; every count
/// agrees, the same searches find the same passages with the same scores in all three, and an
/// interrupted copy is finished by running it again.
final class LibraryMigrationTests: CommandTestCase {
    private var server: PostgresServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PostgresServer.shared()
    }

    private func lectern(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> CommandResult {
        let result = try runLectern(arguments + ["--events", "text"], in: folder.url)
        for text in [result.stdout, result.stderr] where text.contains(server.password) {
            XCTFail("the password shows in `lectern \(arguments.joined(separator: " "))`", file: file, line: line)
        }
        return result
    }

    /// The hits of `query` in `library`, as where each passage is (its document and ordinal
    /// are the same in every copy; row ids are not) and its score.
    private func hits(_ query: [String], in library: String) throws -> [(place: String, score: Double)] {
        let result = try runLectern(["search", "--json", "-k", "8"] + query, in: folder.url, environment: ["LECTERN_DB": library])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).map { ("\($0.uri) \($0.location)", $0.score) }
    }

    func testCorporaCopiedIntoPostgreSQLAndBackGiveTheSameCountsAndHits() throws {
        let corpora = TestPaths.packageRoot.appendingPathComponent("corpora").path
        let ingest = try runLectern(["ingest", corpora], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let url = try server.freshDatabase(for: Self.self, suffix: "_corpora")

        let there = try lectern(["migrate", "--from", "lectern.db", "--to", url])
        XCTAssertEqual(there.status, 0, there.stdout + there.stderr)
        XCTAssertTrue(there.stdout.contains(" already there; 1 run, "), there.stdout)
        XCTAssertTrue(there.stdout.hasSuffix("every count agrees\n"), there.stdout)
        // The copy's keyword postings are in term order, as a keyword search reads them.
        XCTAssertEqual(try PostgresConnection(url: url).postingsOutOfOrder(), 0)
        let back = try lectern(["migrate", "--from", url, "--to", "back.db"])
        XCTAssertEqual(back.status, 0, back.stdout + back.stderr)
        XCTAssertTrue(back.stdout.hasSuffix("every count agrees\n"), back.stdout)
        // The counts printed are the same three times: what was copied is what is there.
        func documents(_ output: String) -> String? { output.split(separator: "\n").first { $0.hasPrefix("  documents") }.map(String.init) }
        XCTAssertEqual(documents(there.stdout), documents(back.stdout))

        let queries: [[String]] = [
            ["chain rule derivative", "--mode", "keyword"], ["photosynthesis light reactions", "--mode", "semantic"],
            ["membrane transport proteins"], ["\"electron transport\"", "--mode", "keyword"], ["limits continuity"],
        ]
        for query in queries {
            let original = try hits(query, in: "lectern.db")
            XCTAssertFalse(original.isEmpty, "\(query): found in the original")
            for copy in [url, "back.db"] {
                let found = try hits(query, in: copy)
                XCTAssertEqual(found.map(\.place), original.map(\.place), "\(query) in \(copy == url ? "PostgreSQL" : "back.db")")
                for (a, b) in zip(found, original) { XCTAssertEqual(a.score, b.score, accuracy: 1e-5, "\(query): \(b.place)") }
            }
        }
        // A rerun copies nothing and still agrees.
        let again = try lectern(["migrate", "--from", "lectern.db", "--to", url])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("0 documents copied, "), again.stdout)
        XCTAssertTrue(again.stdout.contains("; 0 runs, "), again.stdout)
    }

    /// `lectern ARGS` on `library`, as a user reads it: the library's name as LIBRARY, row ids
    /// as ID and passage references (`p42`) as pID (the two libraries number rows apart; what
    /// they point at is compared through the texts printed beside them), and a document's
    /// `updated` time (the copy's own) as TIME.
    private func printed(_ arguments: [String], on library: String) throws -> String {
        let result = try runLectern(arguments, in: folder.url, environment: ["LECTERN_DB": library])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        var text = result.stdout + "\n--- stderr\n" + result.stderr
        if let endpoint = PostgresEndpoint(url: library) { text = text.replacingOccurrences(of: endpoint.description, with: "LIBRARY") }
        text = text.replacingOccurrences(of: folder.url.path + "/" + library, with: "LIBRARY").replacingOccurrences(of: library, with: "LIBRARY")
        return Self.withoutRowIds(text).replacingOccurrences(of: #"(?m)^updated \S+$"#, with: "updated TIME", options: .regularExpression)
    }

    private static func withoutRowIds(_ text: String) -> String {
        text.replacingOccurrences(of: #""(id|passageId|documentId|passage_id|document_id)" ?: ?\d+"#, with: "\"$1\": ID", options: .regularExpression)
            .replacingOccurrences(of: #""ref" ?: ?"p\d+""#, with: "\"ref\": \"pID\"", options: .regularExpression)
    }

    /// The curriculum wing and what runs wrote go along (corpora/, a pipeline that builds a
    /// curriculum, makes its cards and writes a deck and a UMCF export; offline summaries; the
    /// model's answers and calls): into PostgreSQL and back, `curriculum show --json`, `cards
    /// list --json`, an export, `show` with its summaries, `logs` and `runs show` print the same
    /// as on the original, every count agrees, and the pipeline run again on the copy finds its
    /// cards, deck and export up to date.
    func testCurriculaCardsSummariesModelCallsAndRunOutputsAreCopiedBothWays() throws {
        let corpora = TestPaths.packageRoot.appendingPathComponent("corpora").path
        try folder.write("p.toml", """
            [[source]]
            name = "corpora"
            path = "\(corpora)"
            [[curriculum]]
            name = "study"
            sources = ["corpora"]
            [[deck]]
            curriculum = "study"
            format = "tsv"
            output = "out/study.tsv"
            [[export]]
            curriculum = "study"
            format = "umcf"
            output = "out/study.umcf"
            """)
        let run = try runLectern(["run", "p.toml"], in: folder.url)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try runLectern(["summarize"], in: folder.url).status, 0)
        do {
            let store = try LibraryStore(path: folder.file("lectern.db").path)
            try store.cacheResponse(key: "answer-1", provider: "openai", template: "ask/v1",
                                    ChatResponse(text: "Rubisco fixes carbon dioxide.", inputTokens: 120, outputTokens: 9, model: "tiny"))
            try store.recordModelCall(ModelCallRecord(runId: 1, provider: "openai", model: "tiny", template: "ask/v1", inputTokens: 120,
                                                      outputTokens: 9, costUSD: 0.0001, cached: false, subject: "what does rubisco fix",
                                                      prompt: "Passages: …", response: "Rubisco fixes carbon dioxide.", finishReason: "stop",
                                                      durationMs: 420))
        }
        let url = try server.freshDatabase(for: Self.self, suffix: "_wing")
        let there = try lectern(["migrate", "--from", "lectern.db", "--to", url])
        XCTAssertEqual(there.status, 0, there.stdout + there.stderr)
        XCTAssertTrue(there.stdout.contains(", 1 curriculum, "), there.stdout)
        XCTAssertTrue(there.stdout.contains(", 1 model answer, 1 model call, 2 run outputs"), there.stdout)
        XCTAssertTrue(there.stdout.hasSuffix("every count agrees\n"), there.stdout)
        let back = try lectern(["migrate", "--from", url, "--to", "back.db"])
        XCTAssertEqual(back.status, 0, back.stdout + back.stderr)
        XCTAssertTrue(back.stdout.hasSuffix("every count agrees\n"), back.stdout)
        for name in ["curricula", "topics", "cards", "summaries", "model calls", "run outputs"] {
            let row = there.stdout.split(separator: "\n").first { $0.hasPrefix("  \(name) ") }.map(String.init) ?? ""
            XCTAssertNotNil(row.range(of: #"^ +\S.* +[1-9]\d* +[1-9]\d*$"#, options: .regularExpression), "\(name): \(row)")
        }

        let document = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        let commands: [[String]] = [
            ["curriculum", "show", "study", "--json"], ["curriculum", "list"], ["cards", "list", "--json"], ["cards", "stats"],
            ["show", document], ["logs"], ["runs", "show", "1"],
        ]
        for command in commands {
            let original = try printed(command, on: "lectern.db")
            XCTAssertEqual(try printed(command, on: url), original, "`lectern \(command.joined(separator: " "))` on PostgreSQL")
            XCTAssertEqual(try printed(command, on: "back.db"), original, "`lectern \(command.joined(separator: " "))` on back.db")
        }
        var exports: [String] = []
        for (index, library) in ["lectern.db", url, "back.db"].enumerated() {
            _ = try printed(["curriculum", "export", "study", "-o", "export-\(index).umcf"], on: library)
            exports.append(Self.withoutRowIds(try String(contentsOf: folder.file("export-\(index).umcf"), encoding: .utf8)))
        }
        XCTAssertEqual(exports[1], exports[0], "the UMCF export from PostgreSQL")
        XCTAssertEqual(exports[2], exports[0], "the UMCF export from back.db")

        // The run's records went along: the same pipeline on the copy makes and writes nothing.
        let again = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("cards: skipped, the curriculum did not change"), again.stderr)
        XCTAssertFalse(again.stderr.contains(": written"), again.stderr)
        // A rerun of the copy adds nothing.
        let rerun = try lectern(["migrate", "--from", "lectern.db", "--to", "back.db"])
        XCTAssertTrue(rerun.stdout.contains("; 0 runs, ") && rerun.stdout.contains(", 0 curricula, 0 cards, 0 summaries, 0 model answers, 0 model calls, 0 run outputs"),
                      rerun.stdout)
    }

    /// A copy stopped part way (here: the target lost some documents, as a copy killed after
    /// its first documents holds only those) is finished by running it again: only what is
    /// missing is written, and the counts then agree.
    func testARerunCopiesOnlyWhatTheTargetLacks() throws {
        for index in 0..<6 {
            try folder.write("notes/note-\(index).md", "# Note \(index)\n\nNote \(index) is about tides, orbits and the moon's pull number \(index).\n")
        }
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        let url = try server.freshDatabase(for: Self.self, suffix: "_resume")
        XCTAssertEqual(try lectern(["migrate", "--from", "lectern.db", "--to", url]).status, 0)
        let removed = try runLectern(["rm", "notes/note-1.md", "notes/note-4.md"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(removed.status, 0, removed.stderr)

        let differs = try lectern(["migrate", "--from", url, "--to", "lectern.db"])
        XCTAssertEqual(differs.status, 1, "the target holds more documents: \(differs.stdout)")
        XCTAssertTrue(differs.stdout.contains("   differs"), differs.stdout)

        let rerun = try lectern(["migrate", "--from", "lectern.db", "--to", url])
        XCTAssertEqual(rerun.status, 0, rerun.stdout + rerun.stderr)
        XCTAssertTrue(rerun.stdout.hasPrefix("2 documents copied, 4 already there"), rerun.stdout)
        // The same passages (notes that tie keep their own order of row ids in each library).
        XCTAssertEqual(Set(try hits(["moon"], in: url).map(\.place)), Set(try hits(["moon"], in: "lectern.db").map(\.place)))
    }

    /// A copy is the same library elsewhere: `show` prints when each document was ingested and
    /// `sources` when each source was last read as the original recorded them, not the time of
    /// the copy (which every copied document was stamped with).
    func testACopyKeepsWhenDocumentsWereIngested() throws {
        try folder.write("notes/cells.md", "# Cells\n\nMitochondria make most of a cell's ATP by oxidative phosphorylation.\n")
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        do {
            let store = try LibraryStore(path: folder.file("lectern.db").path)
            try store.write { db in
                try db.execute(sql: "UPDATE documents SET created_at = '2021-03-04T05:06:07Z', updated_at = '2022-03-04T05:06:07Z'")
                try db.execute(sql: "UPDATE sources SET updated_at = '2022-03-04T05:06:08Z'")
            }
        }
        let url = try server.freshDatabase(for: Self.self, suffix: "_times")
        XCTAssertEqual(try lectern(["migrate", "--from", "lectern.db", "--to", url]).status, 0)
        // Built once at the end of the copy, not as the first document was written.
        let index = try PostgresConnection(url: url).query("select to_regclass('passages_embedding') is not null").scalar
        XCTAssertEqual(index, "t", "the copy has its HNSW index")
        XCTAssertEqual(try lectern(["migrate", "--from", url, "--to", "back.db"]).status, 0)
        for library in [url, "back.db"] {
            let name = library == url ? "PostgreSQL" : "back.db"
            let show = try runLectern(["show", "notes/cells.md"], in: folder.url, environment: ["LECTERN_DB": library])
            XCTAssertTrue(show.stdout.contains("\nupdated 2022-03-04T05:06:07Z\n"), "\(name): \(show.stdout + show.stderr)")
            let sources = try runLectern(["sources", "--json"], in: folder.url, environment: ["LECTERN_DB": library])
            XCTAssertTrue(sources.stdout.contains("2022-03-04T05:06:08Z"), "\(name): \(sources.stdout + sources.stderr)")
        }
        let store = try LibraryStore(path: folder.file("back.db").path)
        let created = try store.read { db in try String.fetchOne(db, sql: "SELECT created_at FROM documents") }
        XCTAssertEqual(created, "2021-03-04T05:06:07Z")
    }

    /// The passages and blocks stream into PostgreSQL in COPY's text form, where a tab ends a
    /// value, a newline a row and `\N` is NULL: text holding them (code, LaTeX, a Windows path)
    /// comes back from the copy and its copy back into a file as it was.
    func testTextWithTabsBackslashesAndNewlinesIsCopiedAsItIs() throws {
        // In a code block, which keeps its text as written (the reader drops backslashes elsewhere).
        try folder.write("notes/escapes.md", """
            # Escapes

            Code that prints a path and a fraction:

            ```
            if x:
            \tprint("C:\\Users\\N", "\\frac{a}{b}", "a\\tb")\r
            \\N
            ```
            """)
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        let url = try server.freshDatabase(for: Self.self, suffix: "_escapes")
        XCTAssertEqual(try lectern(["migrate", "--from", "lectern.db", "--to", url]).status, 0)
        XCTAssertEqual(try lectern(["migrate", "--from", url, "--to", "back.db"]).status, 0)
        func texts(_ file: String) throws -> [String] {
            try LibraryStore(path: folder.file(file).path).read { db in
                try String.fetchAll(db, sql: "SELECT text FROM passages ORDER BY ordinal")
                    + String.fetchAll(db, sql: "SELECT text FROM blocks ORDER BY ordinal")
            }
        }
        let original = try texts("lectern.db")
        XCTAssertTrue(original.contains { $0.contains(#"C:\Users\N", "\frac{a}{b}", "a\tb")"#) }, "the ingest kept the backslashes: \(original)")
        XCTAssertTrue(original.contains { $0.contains("\n\tprint(") && $0.contains("\n\\N") }, "the code block kept its lines and tab: \(original)")
        XCTAssertEqual(try texts("back.db"), original)
    }

    func testTheSameLibraryOrAnotherEmbeddersLibraryIsRefusedInOneLine() throws {
        try folder.write("notes/a.md", "# A\n\nA note about tides.\n")
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        let same = try lectern(["migrate", "--from", "lectern.db", "--to", "./lectern.db"])
        XCTAssertEqual(same.status, 2, same.stderr)
        XCTAssertTrue(same.stderr.contains("--from and --to name the same library"), same.stderr)
        let missing = try lectern(["migrate", "--from", "nothing.db", "--to", "copy.db"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nothing.db: no library here yet"), missing.stderr)
    }
}
