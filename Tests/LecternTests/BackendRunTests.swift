import Foundation
import XCTest
@testable import Lectern

/// `lectern run`, `runs`, `runs show` and `logs` on either backend: a pipeline of sources runs
/// on a SQLite library file and on a PostgreSQL database (a real PostgreSQL 18 with pgvector,
/// Support/PostgresServer) with the same output; on PostgreSQL the run lock is an advisory
/// lock, a killed run is listed as interrupted, reading commands write nothing, and a failure
/// of the server in the middle of a command is Lectern's one line.
final class BackendRunTests: CommandTestCase {
    enum Backend: String, CaseIterable { case sqlite, postgres }

    private var server: PostgresServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PostgresServer.shared()
    }

    /// Three Markdown notes and a pipeline of sources only (a licence and tags on one).
    private func writeNotesAndPipeline() throws {
        try folder.write("notes/cells.md", """
            # Cells

            ## Membranes

            The cell membrane is a lipid bilayer that lets water through and keeps most ions out. Proteins in \
            the membrane pump sodium out of the cell and potassium in.

            ## Mitochondria

            Mitochondria make ATP from glucose and oxygen in cellular respiration.
            """)
        try folder.write("notes/orbits.md", """
            # Orbits

            A planet moves on an ellipse with the sun at one focus. The line from the sun to the planet sweeps \
            equal areas in equal times, so the planet moves fastest near the sun.
            """)
        try folder.write("more/tides.md", """
            # Tides

            The moon's gravity pulls the ocean into two bulges, and the earth turns beneath them: two high \
            tides a day at most coasts.
            """)
        try folder.write("p.toml", """
            [[source]]
            path = "notes"
            licence = "CC BY 4.0"
            tags = ["biology", "physics"]
            [[source]]
            path = "more"
            [[curriculum]]
            name = "science"
            sources = ["notes", "more"]
            """)
    }

    /// `lectern ARGS` with `LECTERN_DB` = `library`: exit status, stdout and stderr in one text,
    /// the library's name as LIBRARY, times as TIME and milliseconds as N; fails if the
    /// password shows.
    private func run(_ arguments: [String], on library: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runLectern(arguments + ["--events", "text"], in: folder.url, environment: ["LECTERN_DB": library])
        for text in [result.stdout, result.stderr] where text.contains(server.password) {
            XCTFail("the password shows in `lectern \(arguments.joined(separator: " "))`", file: file, line: line)
        }
        var text = "exit \(result.status)\n\(result.stdout)\n--- stderr\n\(result.stderr)"
        if let endpoint = PostgresEndpoint(url: library) { text = text.replacingOccurrences(of: endpoint.description, with: "LIBRARY") }
        text = text.replacingOccurrences(of: folder.url.path + "/lectern.db", with: "LIBRARY").replacingOccurrences(of: "lectern.db", with: "LIBRARY")
        text = text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, with: "TIME", options: .regularExpression)
        text = text.replacingOccurrences(of: #"_ms \d+"#, with: "_ms N", options: .regularExpression)
        return text.replacingOccurrences(of: #" +\d+ ms"#, with: " N ms", options: .regularExpression)
    }

    private func libraries(_ suffix: String) throws -> [Backend: String] {
        [.sqlite: "lectern.db", .postgres: try server.freshDatabase(for: Self.self, suffix: suffix)]
    }

    func testAPipelineOfSourcesRunsAndListsTheSameOnBothBackends() throws {
        try writeNotesAndPipeline()
        let libraries = try libraries("_pipeline")
        let commands: [[String]] = [
            ["run", "p.toml"],
            // Nothing changed: every document unchanged, by its skip key.
            ["run", "p.toml"],
            ["runs"],
            ["runs", "show", "1"],
            ["runs", "show", "2"],
            ["runs", "show", "9"],
            ["logs"],
            ["show", "notes/cells.md"],
            ["sources"],
            // The pipeline's curriculum, built by the run on either backend.
            ["curriculum", "show", "science"],
        ]
        for command in commands {
            let outputs = try Backend.allCases.map { try run(command, on: libraries[$0]!) }
            let (pg, lite) = (outputs[1].split(separator: "\n"), outputs[0].split(separator: "\n"))
            let differing = zip(pg, lite).filter { $0 != $1 }.map { "postgres: \($0)\nsqlite:   \($1)" }
            XCTAssertTrue(differing.isEmpty && pg.count == lite.count,
                          "`lectern \(command.joined(separator: " "))` differs between the backends:\n" + differing.joined(separator: "\n"))
        }
        // The run's finishing stages looked after the keyword postings' order (a first run records their size).
        let ordered = try PostgresConnection(url: libraries[.postgres]!).query("select value from settings where key = 'postings_ordered_pages'")
        XCTAssertNotNil(ordered.scalar, "the run recorded the keyword postings' size")
        let first = try run(["runs", "show", "1"], on: libraries[.postgres]!)
        XCTAssertTrue(first.contains("run #1: run run p.toml"), first)
        XCTAssertTrue(first.contains("status   succeeded"), first)
        let listed = try run(["runs"], on: libraries[.postgres]!)
        XCTAssertTrue(listed.contains("#2  TIME  run  succeeded"), listed)
        XCTAssertTrue(listed.contains("curricula_unchanged 1") && listed.contains("curricula_built 1, "), listed)
        // The pipeline's licence and tags, kept with the documents.
        let shown = try run(["show", "notes/cells.md", "--json"], on: libraries[.postgres]!)
        XCTAssertTrue(shown.contains(#""pipeline_licence" : "CC BY 4.0""#), shown)
    }

    /// A pipeline that makes cards and writes a deck and exports (corpora/notes) runs on
    /// PostgreSQL as on a library file: the same files (times aside), the same report and run
    /// record naming them; the next run finds them up to date and writes nothing, and a file
    /// changed by hand is written again, on both.
    func testAPipelineWithADeckAndExportsWritesTheSameFilesOnBothBackends() throws {
        let notes = TestPaths.corpora.appendingPathComponent("notes").path
        let libraries = try libraries("_outputs")
        var printed: [Backend: [String]] = [:]
        var files: [Backend: [String]] = [:]
        for backend in Backend.allCases {
            // A folder per backend: the second run must not find the first one's files.
            let place = backend.rawValue
            try folder.write("\(place)/p.toml", """
                [[source]]
                name = "notes"
                path = "\(notes)"
                [[curriculum]]
                name = "science"
                sources = ["notes"]
                [[deck]]
                curriculum = "science"
                format = "tsv"
                output = "out/science.tsv"
                [[export]]
                curriculum = "science"
                format = "umcf"
                output = "out/science.umcf"
                [[export]]
                curriculum = "science"
                format = "md"
                output = "out/science.md"
                """)
            let here = folder.url.appendingPathComponent(place)
            func lectern(_ arguments: [String]) throws -> String {
                let result = try runLectern(arguments + ["--events", "text"], in: here, environment: ["LECTERN_DB": libraries[backend]!])
                XCTAssertFalse(result.stdout.contains(server.password) || result.stderr.contains(server.password))
                var text = "exit \(result.status)\n\(result.stdout)\n--- stderr\n\(result.stderr)"
                if let endpoint = PostgresEndpoint(url: libraries[backend]!) { text = text.replacingOccurrences(of: endpoint.description, with: "LIBRARY") }
                text = text.replacingOccurrences(of: here.path, with: "FOLDER").replacingOccurrences(of: "lectern.db", with: "LIBRARY")
                text = text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, with: "TIME", options: .regularExpression)
                return text.replacingOccurrences(of: #" +\d+ ms|_ms \d+"#, with: " N ms", options: .regularExpression)
            }
            var outputs = [try lectern(["run", "p.toml"]), try lectern(["run", "p.toml"])]
            // A deck changed by hand is written again (its record no longer matches the file).
            try folder.write("\(place)/out/science.tsv", "changed by hand\n")
            outputs += [try lectern(["run", "p.toml"]), try lectern(["runs"]), try lectern(["runs", "show", "1"]),
                        try lectern(["runs", "show", "2"]), try lectern(["runs", "show", "3"])]
            printed[backend] = outputs
            files[backend] = try ["science.tsv", "science.umcf", "science.md"].map {
                try String(contentsOf: here.appendingPathComponent("out/\($0)"), encoding: .utf8)
                    .replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"#, with: "TIME", options: .regularExpression)
            }
        }
        for (index, (pg, lite)) in zip(printed[.postgres]!, printed[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "output \(index) differs between the backends")
        }
        for (index, (pg, lite)) in zip(files[.postgres]!, files[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "file \(index) differs between the backends")
        }
        let (first, second, third) = (printed[.postgres]![0], printed[.postgres]![1], printed[.postgres]![2])
        XCTAssertTrue(first.hasPrefix("exit 0"), first)
        XCTAssertTrue(first.contains("FOLDER/out/science.tsv: written") || first.contains("out/science.tsv: written"), first)
        XCTAssertGreaterThan(files[.postgres]![0].split(separator: "\n").count, 3, "the deck holds cards")
        XCTAssertTrue(files[.postgres]![1].contains("\"assessments\""), "the UMCF export carries the cards")
        XCTAssertTrue(second.hasPrefix("exit 0"), second)
        XCTAssertFalse(second.contains(": written"), "an unchanged run rewrote a file:\n\(second)")
        XCTAssertTrue(third.contains("science.tsv: written") && !third.contains("science.md: written"), third)
        let shown = printed[.postgres]![4]
        XCTAssertTrue(shown.contains("science.tsv") && shown.contains("science.umcf") && shown.contains("science.md"), shown)
    }

    /// One `lectern run` at a time per library on PostgreSQL too, across machines: while
    /// another session holds the writer lock a run exits 3 naming the holder, and with --wait
    /// it waits and then runs.
    func testASecondRunOnPostgreSQLExits3OrWaits() throws {
        try writeNotesAndPipeline()
        let url = try libraries("_lock")[.postgres]!
        let holder = try PostgresLibrary(url: url)
        let root = folder.url
        let waited = Locked<CommandResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        try holder.withWriterLock(wait: false) {
            let refused = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url, environment: ["LECTERN_DB": url])
            XCTAssertEqual(refused.status, 3, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("another run (pid \(getpid()), started "), refused.stderr)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
            DispatchQueue.global().async {
                let result = try? runLectern(["run", "p.toml", "--wait", "--events", "text"], in: root, environment: ["LECTERN_DB": url])
                waited.withLock { $0 = result }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 2), .timedOut, "the run did not wait for the lock")
            XCTAssertEqual(try holder.connection.query("select count(*) from documents").scalar, "0")
        }
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "the waiting run did not finish")
        let result = try XCTUnwrap(waited.current)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("holds the lock: waiting"), result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("run #1: 3 stored"), result.stdout)
    }

    /// A `lectern run` killed (SIGKILL) on PostgreSQL leaves its run `running` in the table;
    /// its session's run lock went with it, so `lectern runs` lists it as interrupted at once
    /// and the next run records it so. A run still going is left running.
    func testAKilledRunOnPostgreSQLIsInterruptedAndTheNextRunRecordsIt() throws {
        let url = try libraries("_killed")[.postgres]!
        let slow = try TestServer(routes: ["/slow.html": ["body": "<html><head><title>Slow</title></head><body><p>A page that takes its time.</p></body></html>",
                                                          "delay": 20]])
        try folder.write("slow.toml", "[[source]]\nurl = \"\(slow.url("/slow.html"))\"\n")
        let killed = try RunningLectern(["run", "slow.toml"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(killed.waitForStderr { $0.contains("\"input_started\"") }, "the run did not start")
        // A run still going (another session's) is not taken for a dead one.
        let alive = try PostgresLibrary(url: url)
        let going = try alive.beginRun(command: "ingest", arguments: [])
        killed.send(SIGKILL)
        _ = killed.finish()

        // The server ends the killed process's session as soon as it sees the socket close.
        var listed = try runLectern(["runs"], in: folder.url, environment: ["LECTERN_DB": url])
        for _ in 0..<20 where !listed.stdout.contains("  run  interrupted") {
            Thread.sleep(forTimeInterval: 0.25)
            listed = try runLectern(["runs"], in: folder.url, environment: ["LECTERN_DB": url])
        }
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("#1  "), listed.stdout)
        XCTAssertTrue(listed.stdout.split(separator: "\n").first { $0.hasPrefix("#1 ") }?.contains("  run  interrupted") == true, listed.stdout)
        XCTAssertTrue(listed.stdout.split(separator: "\n").first { $0.hasPrefix("#\(going) ") }?.contains("  ingest  running") == true, listed.stdout)
        let check = try PostgresConnection(url: url)
        XCTAssertEqual(try check.query("select status from runs where id = 1").scalar, "running", "listing writes nothing")

        try folder.write("notes/a.md", "# A\n\nA short note about tides and the moon.\n")
        try folder.write("quick.toml", "[[source]]\npath = \"notes\"\n")
        let next = try runLectern(["run", "quick.toml"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(try check.query("select status from runs where id = 1").scalar, "interrupted")
        XCTAssertEqual(try check.query("select status from runs where id = $1", [String(going)]).scalar, "running")
        try alive.updateRun(going, counts: [:], status: .succeeded)
    }

    /// Reading commands (search, sources, runs, logs, stats) open a PostgreSQL library without
    /// writing: a database with no library is one line and stays empty, and an older library's
    /// missing migrations are not applied by a read.
    func testReadingCommandsWriteNothingOnPostgreSQL() throws {
        let url = try libraries("_read")[.postgres]!
        let check = try PostgresConnection(url: url)
        for command in [["runs"], ["sources"], ["search", "tides"], ["logs"]] {
            let result = try runLectern(command + ["--events", "text"], in: folder.url, environment: ["LECTERN_DB": url])
            XCTAssertNotEqual(result.status, 0, "\(command): \(result.stdout)")
            XCTAssertEqual(result.stderr, "lectern: \(PostgresEndpoint(url: url)!.description): no library here yet: run `lectern ingest PATH` first, or pass --db\n")
        }
        XCTAssertEqual(try check.query("select count(*) from pg_tables where schemaname = 'public'").scalar, "0", "a read made tables")
        XCTAssertEqual(try check.query("select count(*) from pg_extension where extname = 'vector'").scalar, "0")

        try folder.write("notes/a.md", "# A\n\nA short note about tides and the moon.\n")
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url, environment: ["LECTERN_DB": url]).status, 0)
        // As an earlier Lectern left it: its last migration not applied yet.
        let last = PostgresSchema.migrations.last!.name
        try check.query("delete from lectern_migrations where identifier = $1", [last])
        for command in [["runs"], ["sources"], ["search", "tides"], ["logs"], ["stats"]] {
            let result = try runLectern(command, in: folder.url, environment: ["LECTERN_DB": url])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        XCTAssertEqual(try check.query("select count(*) from lectern_migrations where identifier = $1", [last]).scalar, "0",
                       "a read applied a migration")
    }

    /// A statement the server refuses in the middle of a command (here: the passages' table is
    /// gone) is one line naming the library, as every Lectern error, not argument-parser's
    /// "Error: …".
    func testAServerErrorMidCommandIsOneLecternLine() throws {
        let url = try libraries("_broken")[.postgres]!
        try folder.write("notes/a.md", "# A\n\nA short note about tides and the moon.\n")
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url, environment: ["LECTERN_DB": url]).status, 0)
        try PostgresConnection(url: url).query("alter table passages rename to passages_gone")
        let result = try runLectern(["show", "notes/a.md"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(result.status, 1, result.stderr)
        let endpoint = PostgresEndpoint(url: url)!.description
        // What the missing table means for the library, not the server's "relation … does not exist".
        XCTAssertTrue(result.stderr.hasPrefix("lectern: \(endpoint): the library has no table \"passages\": it is older than this Lectern"), result.stderr)
        XCTAssertTrue(result.stderr.contains("a command that writes, such as `lectern ingest`, brings its tables up to date"), result.stderr)
        XCTAssertFalse(result.stderr.contains("relation"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains(server.password))
    }

    /// A run's lock is its whole id: a run left `running` by a session that is gone is listed as
    /// interrupted even when its id is 2^31 past a live run's (the two shared one lock when the
    /// key was the id modulo 2^31, so the dead run was listed as running).
    func testARunIdsLockIsItsOwnEvenTwoToThe31Apart() throws {
        let url = try libraries("_runkey")[.postgres]!
        let live = try PostgresLibrary(url: url)
        let running = try live.beginRun(command: "run", arguments: ["p.toml"])
        let gone = running + 2_147_483_648
        try PostgresConnection(url: url).query("""
            insert into runs (id, command, arguments, started_at, status, counts) values ($1, 'run', '[]', '2026-01-01T00:00:00Z', 'running', '{}')
            """, [String(gone)])
        let listed = try live.runs(limit: 10, id: nil)
        XCTAssertEqual(listed.first { $0.id == gone }?.status, .interrupted, "the dead run is taken for the live one")
        XCTAssertEqual(listed.first { $0.id == running }?.status, .running)
        let shown = try runLectern(["runs"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(shown.stdout.split(separator: "\n").first { $0.hasPrefix("#\(gone) ") }?.contains("interrupted") == true, shown.stdout)
        try live.updateRun(running, counts: [:], status: .succeeded)
        XCTAssertEqual(try live.runs(limit: 10, id: running).first?.status, .succeeded)
    }

    /// `lectern eval --db URL` builds the evaluation's library on PostgreSQL and measures what a
    /// library file measures: the same nDCG@10, Recall@100 and MRR@10 in every mode.
    func testEvalMeasuresTheSameOnPostgreSQL() throws {
        let records = [
            ("d1", "Photosynthesis", "Chlorophyll absorbs light and the plant fixes carbon dioxide into sugar."),
            ("d2", "Respiration", "Mitochondria burn glucose with oxygen and make ATP for the cell."),
            ("d3", "Orbits", "A planet moves on an ellipse with the sun at one focus."),
            ("d4", "Tides", "The moon pulls the oceans into two bulges and the earth turns beneath them."),
            ("d5", "Printing", "Movable type made books cheap in fifteenth-century Europe."),
            ("d6", "Membranes", "The cell membrane keeps most ions out and lets water through."),
        ]
        let corpus = records.map { #"{"_id": "\#($0.0)", "title": "\#($0.1)", "text": "\#($0.2)"}"# }.joined(separator: "\n")
        try folder.write("set/corpus.jsonl", corpus + "\n")
        try folder.write("set/queries.jsonl", """
            {"_id": "q1", "text": "how do plants make sugar from light"}
            {"_id": "q2", "text": "what makes ATP in the cell"}
            {"_id": "q3", "text": "why are there two tides a day"}

            """)
        try folder.write("set/qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq2\td6\t1\nq3\td4\t1\n")
        let url = try libraries("_eval")[.postgres]!
        var reports: [[[String: Any]]] = []
        for extra in [[], ["--db", url]] {
            let result = try runLectern(["eval", "set", "--mode", "all", "--json"] + extra, in: folder.url)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains(server.password) || result.stderr.contains(server.password))
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            reports.append(try XCTUnwrap(report["modes"] as? [[String: Any]]))
        }
        XCTAssertEqual(try PostgresConnection(url: url).query("select count(*) from documents").scalar, "6")
        for (file, server) in zip(reports[0], reports[1]) {
            for measure in ["ndcg@10", "recall@100", "mrr@10"] {
                let a = try XCTUnwrap(file[measure] as? Double, "\(measure) in \(file.keys)"), b = try XCTUnwrap(server[measure] as? Double)
                XCTAssertEqual(a, b, accuracy: 1e-9, "\(file["mode"] ?? "") \(measure)")
            }
        }
        XCTAssertGreaterThan(reports[0].first?["ndcg@10"] as? Double ?? 0, 0.5, "the keyword search finds the judged notes")
    }
}
