import Foundation
import XCTest
@testable import Lectern

/// The curriculum wing's commands (`curriculum build/list/show/find/export/rm`, `search
/// --curriculum --topic`, `cards generate/list/stats/export/rm`, `summarize`, `context`) on a
/// SQLite library file and on a PostgreSQL database (a real PostgreSQL 18 with pgvector,
/// Support/PostgresServer, started once per test process) over the project's notes
/// (corpora/notes): the same output on both, the library's name and times aside.
final class BackendCurriculumCLITests: XCTestCase {
    enum Backend: String, CaseIterable { case sqlite, postgres }

    /// Each backend's `LECTERN_DB`: the test folder's library file, or a fresh database.
    private func libraries(_ suffix: String) throws -> [Backend: String] {
        try TestPaths.requireLecternBinary()
        return [.sqlite: "lectern.db", .postgres: try PostgresServer.shared().freshDatabase(for: Self.self, suffix: suffix)]
    }

    /// `lectern ARGS` on `library` in `folder`: exit status, stdout and stderr in one text, with
    /// the library's name as `LIBRARY`, times as `TIME` and the build's milliseconds as `MS`.
    private func run(_ arguments: [String], on library: String, in folder: TemporaryFolder) throws -> String {
        let result = try runLectern(arguments, in: folder.url, environment: ["LECTERN_DB": library])
        var text = "exit \(result.status)\n\(result.stdout)\n--- stderr\n\(result.stderr)"
        if let endpoint = PostgresEndpoint(url: library) { text = text.replacingOccurrences(of: endpoint.description, with: "LIBRARY") }
        text = text.replacingOccurrences(of: folder.url.path + "/lectern.db", with: "LIBRARY").replacingOccurrences(of: "lectern.db", with: "LIBRARY")
        return Self.timeless(text)
    }

    /// `text` with its dates and times as `TIME` (ISO 8601, or a record's seconds since 2001).
    private static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"#, with: "TIME", options: .regularExpression)
            .replacingOccurrences(of: #""(createdAt|modifiedAt)" ?: ?[0-9.]+"#, with: "\"$1\": TIME", options: .regularExpression)
    }

    /// Runs each command on both backends in turn and fails where their outputs differ; the
    /// SQLite backend's outputs, for what a user reads.
    private func each(_ commands: [[String]], on libraries: [Backend: String], in folder: TemporaryFolder,
                      file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        var outputs: [Backend: [String]] = [:]
        for backend in Backend.allCases {
            outputs[backend] = try commands.map { try run($0, on: libraries[backend]!, in: folder) }
        }
        for (command, (pg, lite)) in zip(commands, zip(outputs[.postgres]!, outputs[.sqlite]!)) {
            XCTAssertEqual(pg, lite, "`lectern \(command.joined(separator: " "))` differs", file: file, line: line)
        }
        return outputs[.sqlite]!
    }

    /// An exported file as the backend wrote it, times as `TIME`.
    private func exported(_ name: String, in folder: TemporaryFolder) throws -> String {
        Self.timeless(try String(contentsOf: folder.file(name), encoding: .utf8))
    }

    func testCurriculumBuildShowFindExportAndRemoveGiveTheSameOnBothBackends() throws {
        let folder = try TemporaryFolder()
        let notes = TestPaths.corpora.appendingPathComponent("notes").path
        let libraries = try libraries("_curricula")
        var umcf: [Backend: String] = [:], json: [Backend: String] = [:], markdown: [Backend: String] = [:]
        var outputs: [Backend: [String]] = [:]
        for backend in Backend.allCases {
            let library = libraries[backend]!
            XCTAssertTrue(try run(["ingest", notes], on: library, in: folder).hasPrefix("exit 0"))
            var printed: [String] = []
            printed.append(try run(["curriculum", "build", "study", notes], on: library, in: folder))
            let shown = try runLectern(["curriculum", "show", "study", "--json"], in: folder.url, environment: ["LECTERN_DB": library])
            let record = try JSONDecoder().decode(Curriculum.self, from: Data(shown.stdout.utf8))
            let calvin = try XCTUnwrap(record.topics.first { $0.title == "The Calvin cycle" })
            for command in [
                ["curriculum", "build", "study", notes],
                ["curriculum", "list"],
                ["curriculum", "show", "study"],
                ["curriculum", "show", "study", "--json"],
                ["curriculum", "find", "what does rubisco fix in the Calvin cycle", "--mode", "keyword"],
                ["curriculum", "find", "movable type and books", "--mode", "semantic"],
                ["curriculum", "find", "derivative of a composition"],
                ["search", "ATP", "--curriculum", "study", "--topic", String(calvin.stableId.prefix(6))],
                ["curriculum", "export", "study", "-o", "study.umcf"],
                ["curriculum", "export", "study", "-o", "study.md"],
                ["curriculum", "export", "study", "-o", "study.json"],
            ] {
                printed.append(try run(command, on: library, in: folder))
            }
            umcf[backend] = try exported("study.umcf", in: folder)
            markdown[backend] = try exported("study.md", in: folder)
            json[backend] = try exported("study.json", in: folder)
            printed.append(try run(["curriculum", "rm", "study"], on: library, in: folder))
            printed.append(try run(["curriculum", "list"], on: library, in: folder))
            printed.append(try run(["curriculum", "show", "study"], on: library, in: folder))
            outputs[backend] = printed
        }
        for (index, (pg, lite)) in zip(outputs[.postgres]!, outputs[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "output \(index) differs")
        }
        XCTAssertEqual(umcf[.postgres], umcf[.sqlite], "the UMCF export differs")
        XCTAssertEqual(markdown[.postgres], markdown[.sqlite], "the Markdown export differs")
        XCTAssertEqual(json[.postgres], json[.sqlite], "the JSON export differs")
        // What a user reads, on either backend.
        let lite = outputs[.sqlite]!
        XCTAssertTrue(lite[0].hasPrefix("exit 0\nstudy: 3 units,"), lite[0])
        XCTAssertTrue(lite[1].contains("study: unchanged (3 units"), lite[1])
        XCTAssertTrue(lite[2].contains("study"), lite[2])
        XCTAssertTrue(lite[3].contains("The Calvin cycle"), lite[3])
        XCTAssertTrue(lite[5].contains("The Calvin cycle"), lite[5])
        XCTAssertTrue(lite[8].hasPrefix("exit 0\n1. "), lite[8])
        XCTAssertTrue(try XCTUnwrap(umcf[.sqlite]).contains("\"umcf\""), "a UMCF document")
        XCTAssertTrue(lite[12].contains("removed study"), lite[12])
        XCTAssertTrue(lite[14].hasPrefix("exit 1"), lite[14])
    }

    /// An Anki package's notes (GUID, fields, tags), by GUID: what a user's Anki imports, whatever
    /// the bytes of the ZIP around it.
    private func ankiNotes(_ name: String, in folder: TemporaryFolder) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys, tempfile, zipfile, os
            folder = tempfile.mkdtemp()
            zipfile.ZipFile(sys.argv[1]).extract("collection.anki2", folder)
            db = sqlite3.connect(os.path.join(folder, "collection.anki2"))
            for row in db.execute("select guid, flds, tags from notes order by guid"):
                print("\t".join(row))
            """, folder.file(name).path]
        return try capture(process).stdout
    }

    func testCardsContextSummariesAndAnswersGiveTheSameOnBothBackends() throws {
        let folder = try TemporaryFolder()
        let corpora = TestPaths.corpora
        let notes = corpora.appendingPathComponent("notes").path
        let libraries = try libraries("_cards")
        var calvin: [Backend: String] = [:]
        for backend in Backend.allCases {
            let library = libraries[backend]!
            XCTAssertTrue(try run(["ingest", notes, corpora.appendingPathComponent("transcripts").path], on: library, in: folder).hasPrefix("exit 0"))
            XCTAssertTrue(try run(["curriculum", "build", "study", notes], on: library, in: folder).hasPrefix("exit 0"))
            let shown = try runLectern(["curriculum", "show", "study", "--json"], in: folder.url, environment: ["LECTERN_DB": library])
            let record = try JSONDecoder().decode(Curriculum.self, from: Data(shown.stdout.utf8))
            calvin[backend] = try XCTUnwrap(record.topics.first { $0.title == "The Calvin cycle" }).stableId
        }
        XCTAssertEqual(calvin[.postgres], calvin[.sqlite], "topic ids are made from the sources, not from row ids")
        let topic = try XCTUnwrap(calvin[.sqlite])

        // Cards: generated, listed, counted and exported alike; a package's notes compared as notes.
        var files: [Backend: [String]] = [:]
        var outputs: [Backend: [String]] = [:]
        for backend in Backend.allCases {
            let library = libraries[backend]!
            var printed = try [
                ["cards", "generate", "study"],
                ["cards", "list"],
                ["cards", "list", "--curriculum", "study", "--topic", String(topic.prefix(6)), "--json"],
                ["cards", "stats"],
            ].map { try run($0, on: library, in: folder) }
            for format in ["apkg", "tsv", "csv", "md", "json"] {
                printed.append(try run(["cards", "export", "study", "--format", format, "-o", "deck.\(format)"], on: library, in: folder))
            }
            files[backend] = try ["tsv", "csv", "md", "json"].map { try exported("deck.\($0)", in: folder) }
                + [try ankiNotes("deck.apkg", in: folder)]
            printed += try [
                ["curriculum", "export", "study", "-o", "study.umcf"],
                ["cards", "generate", "study", "--topic", topic],
                ["cards", "rm", "study", "--topic", topic],
                ["cards", "stats"],
            ].map { try run($0, on: library, in: folder) }
            files[backend]! += [try exported("study.umcf", in: folder)]
            outputs[backend] = printed
        }
        for (index, (pg, lite)) in zip(outputs[.postgres]!, outputs[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "cards output \(index) differs")
        }
        for (index, (pg, lite)) in zip(files[.postgres]!, files[.sqlite]!).enumerated() {
            XCTAssertEqual(pg, lite, "exported file \(index) differs")
        }
        let lite = outputs[.sqlite]!
        XCTAssertTrue(lite[0].hasPrefix("exit 0\n") && lite[0].contains(" notes ("), lite[0])
        XCTAssertTrue(lite[4].contains("wrote deck.apkg: "), lite[4])
        XCTAssertFalse(try XCTUnwrap(files[.sqlite]?[4]).isEmpty, "the package holds notes")
        XCTAssertTrue(lite[10].contains("0 new, 0 changed"), lite[10])

        // Context for a question and for a topic; summaries made offline and shown.
        _ = try each([
            ["context", "what does the chain rule say about composite functions?", "--budget", "300"],
            ["context", "--topic", topic, "--budget", "600"],
            ["context", "--topic", topic, "--budget", "600", "--format", "json"],
            ["summarize"],
            ["show", corpora.appendingPathComponent("notes/photosynthesis.md").path],
            ["show", corpora.appendingPathComponent("notes/photosynthesis.md").path, "--json"],
        ], on: libraries, in: folder)
    }

    /// `ask` with a model (the loopback test server speaking the chat-completions protocol):
    /// the same answer on both backends, and asked again, answered from the library's cache.
    func testAskAnswersFromTheLibrarysCacheOnBothBackends() throws {
        let folder = try TemporaryFolder()
        let server = try TestServer(routes: ["/v1/chat/completions": ["json": [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test",
            "choices": [["index": 0, "message": ["role": "assistant", "content": "Rubisco fixes carbon dioxide [1]."], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120],
        ]]])
        defer { server.stop() }
        _ = try folder.write("lectern.toml", """
            [llm]
            provider = "openai"
            model = "gpt-test"
            base_url = "\(server.url("/v1"))"

            [http]
            retries = 0
            """)
        let libraries = try libraries("_ask")
        var calls: [Int] = []
        for backend in Backend.allCases {
            let library = libraries[backend]!
            let environment = ["LECTERN_DB": library, "LECTERN_CONFIG": folder.file("lectern.toml").path, "OPENAI_API_KEY": "sk-test"]
            XCTAssertEqual(try runLectern(["ingest", TestPaths.corpora.appendingPathComponent("notes").path], in: folder.url,
                                          environment: environment).status, 0)
            var answers: [String] = []
            for _ in 0..<2 {
                let asked = try runLectern(["ask", "what does rubisco fix", "-k", "2"], in: folder.url, environment: environment)
                XCTAssertEqual(asked.status, 0, asked.stderr)
                answers.append(asked.stdout)
                calls.append(try server.requests().count)
            }
            XCTAssertEqual(answers[0], answers[1], "\(backend): the cached answer is the answer")
            XCTAssertTrue(answers[0].hasPrefix("Rubisco fixes carbon dioxide [1]."), answers[0])
        }
        // One request a backend: the second question of each is answered from its library.
        XCTAssertEqual(calls, [1, 1, 2, 2])
    }

    /// Four sessions storing the same curriculum at once (workers finishing on several
    /// machines): each replaces the one before, none fails, and one curriculum is left whole.
    func testConcurrentSavesOfACurriculumTakeTurnsOnPostgreSQL() throws {
        let folder = try TemporaryFolder()
        let url = try libraries("_saves")[.postgres]!
        let notes = TestPaths.corpora.appendingPathComponent("notes").path
        XCTAssertTrue(try run(["ingest", notes], on: url, in: folder).hasPrefix("exit 0"))
        XCTAssertTrue(try run(["curriculum", "build", "study", notes], on: url, in: folder).hasPrefix("exit 0"))
        let records = try XCTUnwrap(try PostgresLibrary(url: url).curriculumRecords(named: "study"))
        let sessions = try (0..<4).map { _ in try PostgresLibrary(url: url) }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for _ in 0..<3 {
                do { try sessions[index].saveCurriculum(records) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        XCTAssertEqual(failures.current, [])
        let library = sessions[0]
        XCTAssertEqual(try library.curriculumSummaries().map(\.name), ["study"])
        let stored = try XCTUnwrap(try library.curriculumRecords(named: "study"))
        XCTAssertEqual(stored.units.flatMap(\.topics).map(\.topic.stableId), records.units.flatMap(\.topics).map(\.topic.stableId))
        XCTAssertEqual(try library.connection.query("select count(*) from curriculum_units").scalar, String(records.units.count))
    }
}
