import XCTest
@testable import Lectern

/// What every command does the same way: `--events json` for its failures and notes, secrets
/// kept out of run records, nothing raw from a file reaching the terminal, a full disk, and an
/// embedding server that is down.
final class CommandBehaviourTests: CommandTestCase {
    func lectern(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: environment)
    }

    func events(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) -> [PipelineEvent] {
        stderr.split(separator: "\n").compactMap { text in
            guard let event = try? JSONDecoder().decode(PipelineEvent.self, from: Data(text.utf8)) else {
                XCTFail("not a JSON event: \(text)", file: file, line: line)
                return nil
            }
            return event
        }
    }

    func runs() throws -> [RunRecord] {
        try JSONDecoder().decode([RunRecord].self, from: Data(try lectern("runs", "--json").stdout.utf8))
    }

    // MARK: --events json

    func testEveryCommandReportsItsFailuresAndNotesAsJSONEvents() throws {
        try folder.write("a.md", "# A\n\nAlpha particles are helium nuclei.\n")
        XCTAssertEqual(try lectern("ingest", "a.md").status, 0)

        var result = try lectern("rm", "nope.md", "--events", "json")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(events(result.stderr).map(\.event), [.failed])
        XCTAssertEqual(events(result.stderr).first?.input, "nope.md")

        result = try lectern("summarize", "nope.md", "--events", "json")
        XCTAssertEqual(result.status, 1)
        let summarize = events(result.stderr)
        XCTAssertTrue(summarize.contains { $0.event == .failed && $0.input == "nope.md" }, result.stderr)

        result = try lectern("search", "zebra", "--mode", "keyword", "--events", "json")
        XCTAssertEqual(result.status, 1, "nothing found")
        XCTAssertEqual(events(result.stderr).map(\.event), [.note])
        XCTAssertEqual(events(result.stderr).first?.message, "no passages match 'zebra'")

        result = try lectern("ask", "what are alpha particles", "--events", "json")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(events(result.stderr).first?.event, .note)
        XCTAssertTrue(events(result.stderr).first?.message?.contains("no language model is configured") == true, result.stderr)

        result = try lectern("sources", "--db", "empty.db", "--events", "json")
        XCTAssertEqual(result.status, 1, "no library there yet")
        XCTAssertEqual(events(result.stderr).map(\.event), [.failed])
        result = try lectern("show", "nothing-like-it", "--events=json")
        XCTAssertEqual(events(result.stderr).first?.input, "nothing-like-it")
        // eval has no library option, but its own --events.
        result = try lectern("eval", "no-such-set", "--events", "json")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(events(result.stderr).map(\.event), [.failed])
        XCTAssertTrue(events(result.stderr).first?.input?.hasPrefix("no-such-set") == true, result.stderr)
    }

    /// The error path uses the format the command parsed, not a second look at the command line:
    /// a search for the text `--events=json` is not a request for JSON.
    func testTheFormatOfAStoppingErrorIsTheOneTheCommandChose() throws {
        let result = try lectern("search", "--db", "nowhere.db", "--", "--events=json")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "lectern: nowhere.db: no library here yet: run `lectern ingest PATH` first, or pass --db\n")
    }

    // MARK: Secrets in run records

    /// Every command that records a run records its command line through one redaction.
    func testNoRecordedRunHoldsACredential() throws {
        try folder.write("a.md", "# A\n\nAlpha particles are helium nuclei.\n")
        let page = try TestServer(routes: ["/page.html": ["body": "<html><head><title>Beta</title></head><body><main><p>Beta particles are electrons.</p></main></body></html>",
                                                          "headers": ["Content-Type": "text/html"]]])
        defer { page.stop() }
        let withCredentials = page.url("/page.html").replacingOccurrences(of: "http://", with: "http://alice:s3cret-pw@") + "?api_key=k-123456"
        var result = try lectern("ingest", "a.md", withCredentials, environment: ["LECTERN_HTTP_HOST_INTERVAL": "0"])
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try lectern("summarize", "--provider", "openai", "--model", "m", "--base-url", "http://bob:hunter2@127.0.0.1:9/v1",
                             environment: ["LECTERN_HTTP_RETRIES": "0"])
        XCTAssertEqual(result.status, 1, "the model server is down")
        result = try lectern("ask", "alpha", "--provider", "openai", "--model", "m", "--base-url=http://127.0.0.1:9/v1?token=t-987654",
                             environment: ["LECTERN_HTTP_RETRIES": "0"])
        result = try lectern("rm", "http://carol:pa55word@example.org/never.html")
        XCTAssertEqual(result.status, 1)

        let recorded = try runs()
        XCTAssertEqual(recorded.map(\.command), ["rm", "ask", "summarize", "ingest"])
        let arguments = recorded.flatMap(\.arguments)
        XCTAssertTrue(arguments.contains(page.url("/page.html") + "?api_key=***"), "\(arguments)")
        XCTAssertTrue(arguments.contains("http://127.0.0.1:9/v1"), "\(arguments)")
        XCTAssertTrue(arguments.contains("--base-url=http://127.0.0.1:9/v1?token=***"), "\(arguments)")
        XCTAssertTrue(arguments.contains("http://example.org/never.html"), "\(arguments)")
        let library = try Data(contentsOf: folder.file("lectern.db")) + ((try? Data(contentsOf: folder.file("lectern.db-wal"))) ?? Data())
        for secret in ["s3cret-pw", "k-123456", "hunter2", "t-987654", "pa55word"] {
            XCTAssertFalse(arguments.joined(separator: " ").contains(secret), secret)
        }
        // (The page's own address is the document's provenance; the others appear nowhere else.)
        for secret in ["hunter2", "t-987654", "pa55word"] {
            XCTAssertNil(library.range(of: Data(secret.utf8)), "\(secret) is in the library file")
        }
    }

    // MARK: Terminal safety

    /// Control characters in a file name or a document never reach the terminal raw: an escape
    /// sequence could clear the screen, and a newline in a name could forge a line of its own.
    func testEscapeSequencesFromFilesAndDocumentsAreShownNotObeyed() throws {
        let name = "bad\u{1B}[2J\nlectern: fake error.md"
        try folder.write(name, "")
        try folder.write("cells.txt", "Entropy \u{1B}[2J\u{1B}[31mmeasures\u{1B}[0m the surprise of a message.\n")
        try folder.write("title.md", "# Entropy\u{1B}]0;pwned\u{07} notes\n\nEntropy of a fair coin is one bit.\n")

        var result = try lectern("ingest", name, "cells.txt", "title.md")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: bad\\x1b[2J\\nlectern: fake error.md: empty file\n", "one line, the name escaped")

        result = try lectern("search", "entropy", "--mode", "keyword")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, result.stdout)
        XCTAssertTrue(result.stdout.contains("Entropy \\x1b[2J\\x1b[31mmeasures\\x1b[0m the surprise of a message."), result.stdout)
        XCTAssertTrue(result.stdout.contains("Entropy\\x1b]0;pwned\\x07 notes"), result.stdout)

        for command in [["sources"], ["show", "title.md", "--passages"], ["extract", "title.md"]] {
            result = try runLectern(command, in: folder.url)
            XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(command): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("\\x1b]0;pwned\\x07"), "\(command): \(result.stdout)")
        }
        // JSON is escaped by its encoder, and keeps the text as it is.
        result = try lectern("search", "entropy", "--mode", "keyword", "--json")
        let hits = try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
        XCTAssertTrue(hits.contains { $0.title == "Entropy\u{1B}]0;pwned\u{07} notes" })
    }

    // MARK: A full disk

    /// A library that cannot grow (here a file-size limit, `ulimit -f`, which makes writes fail
    /// with EFBIG as a full disk fails them with ENOSPC): one line naming the library and the
    /// reason, the batch stops there, the run is recorded as failed, and what was stored is intact.
    func testAFullDiskStopsTheBatchWithOneLineAndAFailedRun() throws {
        try folder.write("first.md", "# First\n\nMitochondria make ATP.\n")
        XCTAssertEqual(try lectern("ingest", "first.md").status, 0)
        let sections = (1...3000).map { "## Part \($0)\n\nThe electron transport chain of mitochondrion \($0) pumps protons across the inner membrane." }
        try folder.write("big.md", "# Big\n\n" + sections.joined(separator: "\n\n"))
        try folder.write("after-1.md", "# After\n\nRibosomes make proteins.\n")
        try folder.write("after-2.md", "# After two\n\nLysosomes digest.\n")

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        // 1 MiB: the library holds the first note; the big one cannot be written.
        shell.arguments = ["-c", "ulimit -f 1024 && exec \"$0\" \"$@\"", TestPaths.lecternBinary.path, "ingest", "big.md", "after-1.md", "after-2.md"]
        shell.currentDirectoryURL = folder.url
        shell.environment = lecternEnvironment(in: folder.url)
        let out = Pipe(), err = Pipe()
        shell.standardOutput = out
        shell.standardError = err
        try shell.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()

        XCTAssertEqual(shell.terminationReason, .exit, "not killed by SIGXFSZ")
        XCTAssertEqual(shell.terminationStatus, 1, stderr)
        XCTAssertEqual(stderr, "lectern: lectern.db: cannot write the library: the file-size limit (ulimit -f) of 1 MB is reached\n")
        XCTAssertTrue(stdout.hasPrefix("0 stored (0 passages), 0 unchanged, 1 failed, stopped: 2 not read"), stdout)

        let run = try XCTUnwrap(try runs().first)
        XCTAssertEqual(run.status, .failed)
        XCTAssertEqual(run.failures.map(\.reason), ["cannot write the library: the file-size limit (ulimit -f) of 1 MB is reached"])
        XCTAssertNil(run.counts["documents"])
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertEqual(try store.allDocuments().map(\.title), ["First"])
    }

    // MARK: An embedding server that is down or refuses

    func testAnEmbeddingServerThatIsDownLeavesAFailedRunWithTheReason() throws {
        try folder.write("a.md", "# A\n\nAlpha particles are helium nuclei.\n")
        let result = try lectern("ingest", "a.md", "--embedder", "openai:nomic-embed", environment: [
            "LECTERN_EMBEDDING_URL": "http://127.0.0.1:9/v1", "LECTERN_HTTP_RETRIES": "0"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        let run = try XCTUnwrap(try runs().first)
        XCTAssertEqual(run.command, "ingest")
        XCTAssertEqual(run.status, .failed)
        XCTAssertEqual(run.failures.map(\.input), ["http://127.0.0.1:9/v1/embeddings"])
        XCTAssertTrue(run.failures.first?.reason.contains("connect") == true, "\(run.failures)")
    }

    func testAnEmbeddingServerThatRefusesLeavesAFailedRunWithItsAnswer() throws {
        try folder.write("a.md", "# A\n\nAlpha particles are helium nuclei.\n")
        let server = try TestServer(routes: ["/v1/embeddings": ["status": 503, "json": ["error": ["message": "model is loading"]]]])
        defer { server.stop() }
        let result = try lectern("ingest", "a.md", "--embedder", "openai:nomic-embed", environment: [
            "LECTERN_EMBEDDING_URL": server.url("/v1"), "LECTERN_HTTP_RETRIES": "0"])
        XCTAssertEqual(result.status, 1)
        let run = try XCTUnwrap(try runs().first)
        XCTAssertEqual(run.status, .failed)
        XCTAssertTrue(run.failures.first?.reason.contains("503") == true, "\(run.failures)")
        XCTAssertTrue(result.stderr.contains("503"), result.stderr)
    }
}
