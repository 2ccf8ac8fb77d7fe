import XCTest
@testable import Lectern

/// Ctrl-C (SIGINT), `kill` (SIGTERM) and a process that dies: a command stops at a document
/// boundary, says what it did, records its run as interrupted, leaves no temporary folder behind
/// and exits 130 / 143; the library holds only whole documents.
///
/// The batches are made slow by a real embedding server on 127.0.0.1 that takes its time over
/// each request (one passage a request), so that the signal arrives in the middle of the work.
final class SignalTests: XCTestCase {
    var folder: TemporaryFolder!
    var server: TestServer!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try TestPaths.requireLecternBinary()
        server = try TestServer(routes: ["/v1/embeddings": ["delay": 0.08, "json": [
            "object": "list", "model": "slow",
            "data": [["object": "embedding", "index": 0, "embedding": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]]],
        ]]])
        try FileManager.default.createDirectory(at: folder.file("tmp"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
    }

    /// A slow remote embedder, and a temporary folder of the test's own (where archives are unpacked).
    var environment: [String: String] {
        ["LECTERN_EMBEDDER": "openai:slow", "LECTERN_EMBEDDING_URL": server.url("/v1"), "LECTERN_EMBEDDING_DIMENSIONS": "8",
         "LECTERN_EMBEDDING_BATCH": "1", "LECTERN_HTTP_RETRIES": "0", "TMPDIR": folder.file("tmp").path]
    }

    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: environment)
    }

    func writeNotes(_ count: Int) throws -> [String] {
        try (1...count).map { n in
            let name = String(format: "notes/note-%02d.md", n)
            try folder.write(name, "# Note \(n)\n\nNote \(n) says that enzymes lower the activation energy of reaction \(n).\n")
            return name
        }
    }

    /// The unpacked archives and downloads left in the test's temporary folder.
    var temporaryFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.file("tmp").path)) ?? []).filter { $0.hasPrefix("lectern-download-") }
    }

    /// An OpenStax book of `modules` sections as a ZIP, as GitHub serves a book's repository.
    func writeBookArchive(modules: Int) throws -> String {
        let book = try TemporaryFolder()
        try book.write("META-INF/books.xml", """
            <container xmlns="https://openstax.org/namespaces/book-container" version="1">
            <book slug="slow" style="x" href="../collections/slow.collection.xml"/></container>
            """)
        let list = (1...modules).map { "<col:module document=\"m\($0)\"/>" }.joined()
        try book.write("collections/slow.collection.xml", """
            <col:collection xmlns:col="http://cnx.rice.edu/collxml" xmlns:md="http://cnx.rice.edu/mdml">
            <col:metadata><md:title>Slow Book</md:title><md:slug>slow</md:slug></col:metadata>
            <col:content>\(list)</col:content></col:collection>
            """)
        for n in 1...modules {
            let sentence = "Topic \(n) explains how the membrane of cell number \(n) moves ions against their gradient using energy from ATP. "
            try book.write("modules/m\(n)/index.cnxml", """
                <document xmlns="http://cnx.rice.edu/cnxml"><title>Topic \(n)</title><content>
                <para>\(String(repeating: sentence, count: 4))</para></content></document>
                """)
        }
        let archive = folder.file("book.zip")
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zip.arguments = ["python3", "-c", """
            import os, sys, zipfile
            src, dst = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
                for root, dirs, files in os.walk(src):
                    for f in sorted(files):
                        p = os.path.join(root, f)
                        z.write(p, "openstax-osbooks-slow-0a1b2c3/" + os.path.relpath(p, src))
            """, book.path, archive.path]
        try zip.run()
        zip.waitUntilExit()
        guard zip.terminationStatus == 0 else { throw XCTSkip("python3 could not write the ZIP archive") }
        return "book.zip"
    }

    /// Whole documents only: every document has all its passages, every passage its vector, and
    /// SQLite finds the file sound.
    func assertLibraryHoldsWholeDocuments(file: StaticString = #filePath, line: UInt = #line) throws -> [StoredDocument] {
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        XCTAssertEqual(try store.integrityCheck(), ["ok"], file: file, line: line)
        let stats = try store.stats()
        XCTAssertEqual(stats.vectors, stats.passages, "every passage has its vector", file: file, line: line)
        let documents = try store.allDocuments()
        for document in documents {
            XCTAssertGreaterThan(document.passageCount, 0, file: file, line: line)
            XCTAssertEqual(try store.passages(documentId: document.id).count, document.passageCount, document.uri, file: file, line: line)
        }
        return documents
    }

    func lastRun() throws -> RunRecord {
        let result = try lectern("runs", "--json")
        return try XCTUnwrap(try JSONDecoder().decode([RunRecord].self, from: Data(result.stdout.utf8)).first)
    }

    func testSIGINTStopsAtADocumentBoundaryAndRemovesTheUnpackedArchive() throws {
        let notes = try writeNotes(4)
        let book = try writeBookArchive(modules: 60)
        let running = try RunningLectern(["ingest", notes[0], notes[1], book, notes[2], notes[3], "--events", "json"],
                                         in: folder.url, environment: environment)
        XCTAssertTrue(running.waitForStderr { $0.contains("\"input_started\"") && $0.contains(book) }, "the book was never started")
        // The archive is unpacked into a temporary folder; its 60 passages take seconds to embed.
        let deadline = Date().addingTimeInterval(30)
        while temporaryFolders.isEmpty && Date() < deadline && running.process.isRunning { usleep(5_000) }
        XCTAssertFalse(temporaryFolders.isEmpty, "the archive was never unpacked into \(folder.file("tmp").path)")
        running.send(SIGINT)
        let result = running.finish()

        XCTAssertEqual(result.status, 130, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("2 stored (2 passages), 0 unchanged, interrupted (SIGINT): 3 not read — "), result.stdout)
        XCTAssertEqual(temporaryFolders, [], "the unpacked archive is removed")
        XCTAssertEqual(running.events.last?.event, .runFinished)
        XCTAssertEqual(running.events.last?.message, "interrupted")

        let run = try lastRun()
        XCTAssertEqual(run.status, .interrupted)
        XCTAssertEqual(run.counts["documents"], 2)
        XCTAssertEqual(run.failures, [], "an interruption is not a failed input")
        let documents = try assertLibraryHoldsWholeDocuments()
        XCTAssertEqual(documents.compactMap(\.path).sorted(), [folder.file(notes[0]).path, folder.file(notes[1]).path],
                       "the book in hand when the signal came is not stored")

        // The next run reads what was left.
        let rerun = try lectern("ingest", notes[0], notes[1], book, notes[2], notes[3])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertTrue(rerun.stdout.hasPrefix("3 stored (62 passages), 2 unchanged"), rerun.stdout)
    }

    func testSIGTERMStopsABatchOfManyFiles() throws {
        let notes = try writeNotes(40)
        let running = try RunningLectern(["ingest", "notes", "--events", "json"], in: folder.url, environment: environment)
        XCTAssertTrue(running.waitForStderr { _ in running.events.filter { $0.event == .stored }.count >= 3 }, "nothing was stored")
        running.send(SIGTERM)
        let result = running.finish()

        XCTAssertEqual(result.status, 143, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let stored = running.events.filter { $0.event == .stored }.count
        XCTAssertLessThan(stored, notes.count, "the batch stopped early")
        XCTAssertTrue(result.stdout.hasPrefix("\(stored) stored (\(stored) passages), 0 unchanged, interrupted (SIGTERM): \(notes.count - stored) not read — "),
                      result.stdout)
        XCTAssertEqual(try lastRun().status, .interrupted)
        XCTAssertEqual(try assertLibraryHoldsWholeDocuments().count, stored)
    }

    /// A second signal does not wait for the document in hand (here an embedding request that
    /// takes 30 s): the process stops at once, and still removes the unpacked archive and ends
    /// its run as interrupted.
    func testASecondSignalStopsAtOnceAndStillCleansUp() throws {
        let stalled = try TestServer(routes: ["/v1/embeddings": ["delay": 30, "json": [
            "data": [["index": 0, "embedding": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]]]]]])
        defer { stalled.stop() }
        var environment = self.environment
        environment["LECTERN_EMBEDDING_URL"] = stalled.url("/v1")
        let book = try writeBookArchive(modules: 1)
        let started = Date()
        let running = try RunningLectern(["ingest", book], in: folder.url, environment: environment)
        let deadline = Date().addingTimeInterval(30)
        while ((try? stalled.requests()) ?? []).isEmpty && Date() < deadline && running.process.isRunning { usleep(10_000) }
        XCTAssertFalse(temporaryFolders.isEmpty, "the archive is unpacked while its passage is embedded")
        running.send(SIGINT)
        XCTAssertTrue(running.waitForStderr(timeout: 10) { $0.contains("stopping after the document in hand") })
        XCTAssertTrue(running.process.isRunning, "the first signal waits for the document in hand")
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 25, "it did not wait for the embedding server")
        XCTAssertEqual(temporaryFolders, [], "the unpacked archive is removed")
        XCTAssertEqual(try lastRun().status, .interrupted)
        XCTAssertNotNil(try lastRun().endedAt, "the run was ended by the process itself")
        XCTAssertEqual(try assertLibraryHoldsWholeDocuments().count, 0)
    }

    /// A process killed outright cannot record anything: its run shows as interrupted as soon
    /// as the process is gone, not `running` until some later run notices.
    func testARunWhoseProcessWasKilledIsListedAsInterrupted() throws {
        _ = try writeNotes(40)
        let running = try RunningLectern(["ingest", "notes", "--events", "json"], in: folder.url, environment: environment)
        XCTAssertTrue(running.waitForStderr { $0.contains("\"stored\"") }, "nothing was stored")
        running.send(SIGKILL)
        XCTAssertEqual(running.finish().status, -SIGKILL)
        XCTAssertEqual(try lastRun().status, .interrupted)
        _ = try assertLibraryHoldsWholeDocuments()
    }

    /// A command with no batch to finish (here `ask`, waiting for a model) stops at once on a
    /// signal, with the same exit status, and its run is recorded as interrupted.
    func testACommandWaitingForAModelStopsAtOnce() throws {
        try folder.write("a.md", "# Enzymes\n\nEnzymes lower the activation energy of reactions.\n")
        XCTAssertEqual(try runLectern(["ingest", "a.md"], in: folder.url).status, 0)
        let model = try TestServer(routes: ["/v1/chat/completions": ["delay": 30, "json": [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "slow",
            "choices": [["index": 0, "message": ["role": "assistant", "content": "Late."], "finish_reason": "stop"]],
        ]]])
        defer { model.stop() }
        let started = Date()
        let running = try RunningLectern(["ask", "what do enzymes do", "--provider", "openai", "--model", "slow",
                                          "--base-url", model.url("/v1")], in: folder.url)
        let deadline = Date().addingTimeInterval(30)
        while (try? model.requests())?.isEmpty ?? true, Date() < deadline { usleep(20_000) }
        running.send(SIGTERM)
        let result = running.finish(timeout: 20)
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 25, "it did not wait for the model")
        XCTAssertEqual(result.stderr, "lectern: interrupted (SIGTERM)\n")
        let runs = try JSONDecoder().decode([RunRecord].self, from: Data(try runLectern(["runs", "--json"], in: folder.url).stdout.utf8))
        XCTAssertEqual(runs.first?.command, "ask")
        XCTAssertEqual(runs.first?.status, .interrupted)
        XCTAssertNotNil(runs.first?.endedAt, "the run was ended by the process itself")
    }
}
