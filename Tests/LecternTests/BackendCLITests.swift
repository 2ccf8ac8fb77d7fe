import Foundation
import XCTest
@testable import Lectern

/// The commands that work on either backend (ingest, search, show, sources, stats, rm, prune),
/// each run on a SQLite library file and on a PostgreSQL database (a real PostgreSQL 18 with
/// pgvector, Support/PostgresServer, started once per test process) over the same generated
/// notes and transcript: the same output on both, the library's name aside, and never the
/// server's password.
final class BackendCLITests: XCTestCase {
    enum Backend: String, CaseIterable { case sqlite, postgres }

    /// Each backend's `LECTERN_DB`: the test folder's library file, or a fresh database.
    private func libraries(_ suffix: String) throws -> [Backend: String] {
        try TestPaths.requireLecternBinary()
        return [.sqlite: "lectern.db", .postgres: try PostgresServer.shared().freshDatabase(for: Self.self, suffix: suffix)]
    }

    /// Three Markdown notes in a folder and a lecture's subtitles, written by the test.
    private static func writeNotes(_ folder: TemporaryFolder) throws {
        _ = try folder.write("notes/photosynthesis.md", """
            # Photosynthesis

            ## Light reactions

            Chlorophyll in the thylakoid membranes absorbs red and blue light. The energy splits water, \
            releases oxygen and charges ATP and NADPH for the next stage of photosynthesis.

            Photosystem II passes excited electrons along an electron transport chain to photosystem I.

            ## Calvin cycle

            In the stroma the enzyme rubisco fixes carbon dioxide onto ribulose bisphosphate. ATP and NADPH \
            from the light reactions reduce the fixed carbon to sugar.
            """)
        _ = try folder.write("notes/calculus.md", """
            # Derivatives

            ## The chain rule

            The chain rule differentiates a composition: the derivative of f of g of x is f prime of g of x \
            times g prime of x. Light travels along a path whose length we differentiate the same way.

            ## Limits

            A limit says what value a function approaches as its input approaches a point. Continuity means \
            the limit equals the value of the function there.
            """)
        _ = try folder.write("notes/printing.md", """
            # The printing press

            Gutenberg's movable type made books cheap in fifteenth-century Europe. Printed pamphlets carried \
            the ideas of the Reformation, and the printing press spread literacy through the cities.
            """)
        _ = try folder.write("lecture.srt", """
            1
            00:00:01,000 --> 00:00:05,000
            Today we follow the light reactions of photosynthesis step by step.

            2
            00:00:05,000 --> 00:00:09,500
            Chlorophyll absorbs a photon and an electron leaves photosystem II.

            3
            00:00:09,500 --> 00:00:14,000
            That electron travels down the transport chain and pumps protons into the thylakoid.

            """)
    }

    /// `lectern ARGS` on `library` in `folder`: exit status, stdout and stderr in one text, with
    /// the library's name as `LIBRARY` and times as `TIME`; fails if the password shows.
    private func run(_ arguments: [String], on library: String, in folder: TemporaryFolder,
                     file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runLectern(arguments, in: folder.url, environment: ["LECTERN_DB": library])
        let server = try PostgresServer.shared()
        for text in [result.stdout, result.stderr] where text.contains(server.password) {
            XCTFail("the password shows in `lectern \(arguments.joined(separator: " "))`", file: file, line: line)
        }
        var text = "exit \(result.status)\n\(result.stdout)\n--- stderr\n\(result.stderr)"
        if let endpoint = PostgresEndpoint(url: library) { text = text.replacingOccurrences(of: endpoint.description, with: "LIBRARY") }
        text = text.replacingOccurrences(of: folder.url.path + "/lectern.db", with: "LIBRARY").replacingOccurrences(of: "lectern.db", with: "LIBRARY")
        return text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, with: "TIME", options: .regularExpression)
    }

    /// A search's hits as JSON, decoded.
    private func hits(_ arguments: [String], on library: String, in folder: TemporaryFolder) throws -> [SearchHit] {
        let result = try runLectern(["search", "--json"] + arguments, in: folder.url, environment: ["LECTERN_DB": library])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
    }

    func testIngestSearchShowSourcesAndStatsPrintTheSameOnBothBackends() throws {
        let folder = try TemporaryFolder()
        try Self.writeNotes(folder)
        let libraries = try libraries("_commands")
        let commands: [[String]] = [
            ["ingest", "notes", "lecture.srt"],
            // A glob over what is stored already: every document unchanged, by its skip key.
            ["ingest", "notes/*.md"],
            ["search", "chlorophyll light", "--mode", "keyword"],
            ["search", "how do plants fix carbon", "--mode", "semantic"],
            ["search", "electron transport chain"],
            ["search", "\"light reactions\" chlorophyll", "--mode", "keyword"],
            ["search", "light -chlorophyll", "--mode", "keyword"],
            ["search", "light", "--source", "notes/calculus.md"],
            ["search", "light", "--type", "srt", "--mode", "semantic"],
            ["search", "\"dark reactions\" chlorophyll"],
            ["search", "light", "--source", "nothing.md"],
            ["sources"],
            ["show", "notes/photosynthesis.md"],
            ["show", "lecture.srt"],
        ]
        var outputs: [Backend: [String]] = [:]
        var found: [Backend: [[SearchHit]]] = [:]
        for backend in Backend.allCases {
            let library = libraries[backend]!
            outputs[backend] = try commands.map { try run($0, on: library, in: folder) }
            found[backend] = try [["chlorophyll light", "--mode", "keyword"], ["sugar from carbon dioxide", "--mode", "semantic"],
                                  ["photosystem electron", "-k", "3"]].map { try hits($0, on: library, in: folder) }
            let passage = try XCTUnwrap(found[backend]?[0].first?.passageId)
            outputs[backend]! += [try run(["show", "p\(passage)", "--context", "1"], on: library, in: folder)]
            // stats: the same counts; the size and the vectors' storage are each backend's own.
            let stats = try run(["stats"], on: library, in: folder).split(separator: "\n")
                .filter { !$0.hasPrefix("library") && !$0.hasPrefix("vectors") }.joined(separator: "\n")
            outputs[backend]! += [stats]
        }
        for (index, (pg, lite)) in zip(outputs[.postgres]!, outputs[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "`lectern \((commands + [["show"], ["stats"]])[min(index, commands.count)].joined(separator: " "))` differs")
        }
        for (pg, lite) in zip(found[.postgres]!, found[.sqlite]!) {
            XCTAssertEqual(pg.map(\.passageId), lite.map(\.passageId))
            XCTAssertEqual(pg.map(\.snippet), lite.map(\.snippet))
            for (a, b) in zip(pg, lite) { XCTAssertEqual(a.score, b.score, accuracy: 1e-5, "\(b.title) \(b.location)") }
        }
        // What a user reads, on either backend.
        let lite = outputs[.sqlite]!
        XCTAssertTrue(lite[0].contains("4 stored"), lite[0])
        XCTAssertTrue(lite[1].contains("0 stored (0 passages), 3 unchanged"), lite[1])
        XCTAssertTrue(lite[2].hasPrefix("exit 0\n1. ") && lite[2].contains("Photosynthesis"), lite[2])
        XCTAssertFalse(lite[6].contains("hlorophyll absorbs"), "the exclusion holds: \(lite[6])")
        XCTAssertTrue(lite[7].contains("Derivatives") && !lite[7].contains("Photosynthesis"), lite[7])
        XCTAssertTrue(lite[9].contains("no passage holds \"dark reactions\""), lite[9])
        XCTAssertTrue(lite[10].contains("--source nothing.md matches no document"), lite[10])
        XCTAssertTrue(lite[12].contains("Calvin cycle"), lite[12])
    }

    /// Keyword queries of words are ranked on both backends from the same keyword postings by
    /// the same scorer: over real documents (corpora/'s notes, PDFs and transcripts, and four
    /// Wikipedia articles of the shared corpus), the same hits with the same printed scores,
    /// and the same JSON to the last digit, for a rare word beside the commonest, a filtered
    /// query, an exclusion and a quoted word among them.
    func testKeywordSearchPrintsTheSameHitsAndScoresOnBothBackends() throws {
        let folder = try TemporaryFolder()
        let libraries = try libraries("_keywords")
        let wikipedia = try TestPaths.sharedCorpus("wikipedia")
        let articles = try FileManager.default.contentsOfDirectory(atPath: wikipedia.path).sorted()
            .map { wikipedia.appendingPathComponent($0).appendingPathComponent("source.html").path }
        let corpora = TestPaths.packageRoot.appendingPathComponent("corpora")
        let searches: [[String]] = [
            ["membrane transport proteins"],
            ["the derivative"],
            ["firefox browser", "-k", "8"],
            ["time loop film"],
            ["cell energy", "--source", corpora.appendingPathComponent("pdf").path],
            ["the limit", "--type", "srt"],
            ["film -groundhog"],
            ["\"mozilla\" foundation"],
        ]
        var outputs: [Backend: [String]] = [:]
        for backend in Backend.allCases {
            let library = libraries[backend]!
            let ingested = try run(["ingest", corpora.path] + articles, on: library, in: folder)
            XCTAssertTrue(ingested.hasPrefix("exit 0\n15 stored"), ingested)
            outputs[backend] = try searches.flatMap { search in
                [try run(["search"] + search + ["--mode", "keyword"], on: library, in: folder),
                 try run(["search"] + search + ["--mode", "keyword", "--json"], on: library, in: folder)]
            }
        }
        for (index, (pg, lite)) in zip(outputs[.postgres]!, outputs[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "`lectern search \(searches[index / 2].joined(separator: " "))\(index % 2 == 1 ? " --json" : "")` differs")
        }
        // Each search finds something, and the filters hold.
        let lite = outputs[.sqlite]!
        for (index, output) in lite.enumerated() { XCTAssertTrue(output.hasPrefix("exit 0\n"), "\(searches[index / 2]): \(output)") }
        XCTAssertTrue(lite[8].contains("corpora/pdf/") && !lite[8].contains("corpora/notes/"), lite[8])
        XCTAssertTrue(lite[10].contains(".srt") && !lite[10].contains(".md"), lite[10])
        XCTAssertFalse(lite[12].lowercased().contains("groundhog"), lite[12])
    }

    func testRemoveAndPruneRemoveTheSameOnBothBackends() throws {
        let folder = try TemporaryFolder()
        try Self.writeNotes(folder)
        let libraries = try libraries("_removal")
        func each(_ arguments: String...) throws -> [Backend: String] {
            var outputs: [Backend: String] = [:]
            for backend in Backend.allCases { outputs[backend] = try run(arguments, on: libraries[backend]!, in: folder) }
            XCTAssertEqual(outputs[.postgres], outputs[.sqlite], "`lectern \(arguments.joined(separator: " "))` differs")
            return outputs
        }
        _ = try each("ingest", "notes", "lecture.srt")
        let removed = try each("rm", "notes/printing.md", "nothing.md")[.sqlite]!
        XCTAssertTrue(removed.hasPrefix("exit 1\nremoved file://"), removed)
        XCTAssertTrue(removed.contains("nothing.md: not in the library"), removed)
        try FileManager.default.removeItem(at: folder.file("notes/calculus.md"))
        XCTAssertTrue(try each("prune", "--dry-run")[.sqlite]!.contains("would remove file://"))
        XCTAssertTrue(try each("prune")[.sqlite]!.contains("calculus.md"))
        let sources = try each("sources")[.sqlite]!
        XCTAssertFalse(sources.contains("calculus") || sources.contains("printing"), sources)
        XCTAssertTrue(sources.contains("photosynthesis.md") && sources.contains("lecture.srt"), sources)
        let stats = try each("search", "gutenberg", "--mode", "keyword")[.sqlite]!
        XCTAssertTrue(stats.hasPrefix("exit 1"), "a removed document is not found: \(stats)")
    }

    /// A hand-started ingest waits while a `lectern run` (any process, any machine) holds the
    /// library's writer lock: on PostgreSQL, a session-level advisory lock.
    func testIngestWaitsForTheWriterLockOnPostgreSQL() throws {
        let folder = try TemporaryFolder()
        try Self.writeNotes(folder)
        let url = try libraries("_lock")[.postgres]!
        let holder = try PostgresLibrary(url: url)
        let root = folder.url
        let finished = Locked<CommandResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        try holder.withWriterLock(wait: false) {
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = TestPaths.lecternBinary
                process.arguments = ["ingest", "notes"]
                process.currentDirectoryURL = root
                process.environment = lecternEnvironment(in: root, overrides: ["LECTERN_DB": url])
                let result = try? capture(process)
                finished.withLock { $0 = result }
                done.signal()
            }
            // Still waiting after 2 s, with nothing stored, while the lock is held.
            XCTAssertEqual(done.wait(timeout: .now() + 2), .timedOut, "the ingest did not wait for the lock")
            XCTAssertEqual(try holder.connection.query("select count(*) from documents").scalar, "0")
        }
        // Released: the ingest goes on.
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "the ingest did not finish")
        let result = try XCTUnwrap(finished.current)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("is updating this library: waiting for it to finish"), result.stderr)
        XCTAssertTrue(result.stdout.contains("3 stored"), result.stdout)
    }

    /// Four `lectern ingest` processes at once on one PostgreSQL library, over the same inputs:
    /// none fails, and every document is stored once, with its passages once.
    func testFourConcurrentIngestsLoseAndDoubleNothing() throws {
        let folder = try TemporaryFolder()
        for index in 0..<12 {
            _ = try folder.write("notes/note-\(index).md", """
                # Note \(index)

                ## Part one of \(index)

                Topic \(index) begins with mitochondria, ribosomes and the cell membrane in note \(index).

                ## Part two of \(index)

                It ends with enzymes, substrates and activation energy, as note number \(index) says.
                """)
        }
        let url = try libraries("_concurrent")[.postgres]!
        let results = Locked<[CommandResult]>([])
        let root = folder.url
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            // Each worker meets the notes in another order, so that they collide on documents.
            let order = worker % 2 == 0 ? ["notes"] : (0..<12).reversed().map { "notes/note-\($0).md" }
            if let result = try? runLectern(["ingest"] + order, in: root, environment: ["LECTERN_DB": url]) {
                results.withLock { $0.append(result) }
            }
        }
        XCTAssertEqual(results.current.count, 4)
        for result in results.current {
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stderr.contains("failed"), result.stderr)
        }
        let library = try PostgresLibrary(url: url)
        XCTAssertEqual(try library.connection.query("select count(*) from documents").scalar, "12")
        XCTAssertEqual(try library.connection.query("select count(*) from sources").scalar, "12")
        let passages = try library.connection.query("select count(*) from passages").scalar
        XCTAssertEqual(try library.connection.query("select coalesce(sum(passage_count), 0) from documents").scalar, passages)
        XCTAssertEqual(try library.connection.query("select passages from keyword_totals").scalar, passages)
        XCTAssertEqual(try library.connection.query("""
            select count(*) from (select document_id, ordinal from passages group by 1, 2 having count(*) > 1) doubled
            """).scalar, "0")
        let stats = try runLectern(["stats"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(stats.stdout.contains("documents  12"), stats.stdout)
    }
}
