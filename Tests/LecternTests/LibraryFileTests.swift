import Foundation
import GRDB
import XCTest
@testable import Lectern

/// What `--db` may name (issue 14): a new library made by two commands at once, a file that is
/// not a library (left exactly as it was), a missing or empty file given to a command that only
/// reads, and a library that cannot be written.
final class LibraryFileTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try folder.write("note.md", "# Osmosis\n\nOsmosis moves water across a membrane, from less to more solute.\n")
    }

    override func tearDownWithError() throws {
        // A test that made the folder read-only gives it back, so that it can be removed.
        _ = chmod(folder.path, 0o755)
        folder = nil
    }

    func lectern(_ arguments: String..., unprivileged: Bool = false) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, asUnprivilegedUser: unprivileged)
    }

    /// Every file in the folder with its bytes: what "left as it was" means.
    func contents() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name != "config-home" {
            files[name] = FileManager.default.contents(atPath: folder.file(name).path) ?? Data()
        }
        return files
    }

    // MARK: Two commands making a new library at once (item D)

    func testTwoCommandsOpeningANewLibraryAtOnceBothSucceed() throws {
        var failures: [String] = []
        for pair in 0..<50 {
            let db = "pair-\(pair).db"
            let results = LockedResults()
            let url = folder.url
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                results.append(Result { try runLectern(["ingest", "note.md", "--db", db], in: url) })
            }
            for result in results.all {
                switch result {
                case .success(let run) where run.status != 0: failures.append("pair \(pair): exit \(run.status): \(run.stderr)")
                case .failure(let error): failures.append("pair \(pair): \(error)")
                default: break
                }
            }
            let search = try lectern("search", "osmosis", "--db", db, "--json")
            let hits = try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [[String: Any]]
            if hits?.count != 1 { failures.append("pair \(pair): the library holds \(hits?.count ?? -1) hits: \(search.stderr)") }
        }
        XCTAssertEqual(failures, [], "\(failures.count) of 50 pairs failed")
    }

    func testTwoIngestsOfAnExistingLibraryRunSideBySide() throws {
        for name in 0..<6 {
            try folder.write("notes/\(name).md", "# Note \(name)\n\n" + String(repeating: "Diffusion spreads molecules from high to low concentration. ", count: 40))
        }
        XCTAssertEqual(try lectern("ingest", "note.md").status, 0)
        let results = LockedResults()
        let url = folder.url
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.append(Result { try runLectern(["ingest", index == 0 ? "notes" : "note.md", "notes/0.md"], in: url) })
        }
        for case .success(let run) in results.all { XCTAssertEqual(run.status, 0, run.stderr) }
        XCTAssertEqual(results.all.count, 2)
        let stats = try JSONDecoder().decode(LibraryStats.self, from: Data(try lectern("stats", "--json").stdout.utf8))
        XCTAssertEqual(stats.documents, 7)
        XCTAssertEqual(stats.runs, 3)
    }

    // MARK: Files that are not libraries (item E)

    func testASQLiteFileOfOtherTablesIsRefusedAndLeftAsItWas() throws {
        // Someone else's file, with a `documents` table of its own.
        let other = folder.file("other.sqlite").path
        try DatabaseQueue(path: other).write { db in
            try db.execute(sql: "CREATE TABLE documents (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO documents(name) VALUES ('tax return')")
        }
        let before = try contents()
        for command in [["search", "osmosis"], ["sources"], ["stats"], ["runs"], ["show", "note.md"], ["ingest", "note.md"], ["rm", "note.md"]] {
            let result = try runLectern(command + ["--db", "other.sqlite"], in: folder.url)
            XCTAssertEqual(result.status, command[0] == "search" ? 2 : 1, "\(command)")
            XCTAssertEqual(result.stderr, "lectern: other.sqlite: not a Lectern library (a SQLite file with other tables)\n", "\(command)")
            XCTAssertEqual(try contents(), before, "lectern \(command[0]) left other.sqlite (and its folder) as they were")
        }
    }

    func testAFileOfAnotherApplicationOrNotSQLiteIsRefused() throws {
        try DatabaseQueue(path: folder.file("app.db").path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = 1234")
        }
        try folder.write("notes.txt", "just text, long enough to be more than a header of a database file.")
        let before = try contents()
        XCTAssertEqual(try lectern("ingest", "note.md", "--db", "app.db").stderr,
                       "lectern: app.db: not a Lectern library (a SQLite file of another application)\n")
        XCTAssertEqual(try lectern("search", "osmosis", "--db", "notes.txt").stderr,
                       "lectern: notes.txt: not a Lectern library (the file is not an SQLite database)\n")
        XCTAssertEqual(try lectern("ingest", "note.md", "--db", "notes.txt").stderr,
                       "lectern: notes.txt: not a Lectern library (the file is not an SQLite database)\n")
        XCTAssertEqual(try contents(), before)
    }

    func testCommandsThatReadCreateNothing() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.file("empty.db").path, contents: nil))
        let before = try contents()
        for command in [["search", "osmosis"], ["sources"], ["stats"], ["runs"], ["show", "note.md"]] {
            for db in ["missing.db", "empty.db"] {
                let result = try runLectern(command + ["--db", db], in: folder.url)
                XCTAssertEqual(result.status, command[0] == "search" ? 2 : 1, "\(command) \(db)")
                XCTAssertEqual(result.stderr, "lectern: \(db): no library here yet: run `lectern ingest PATH` first, or pass --db\n", "\(command) \(db)")
                XCTAssertEqual(try contents(), before, "lectern \(command[0]) --db \(db) created or changed nothing")
            }
        }
    }

    func testAnEmptyFileOrAnUnfinishedFirstMigrationBecomesALibrary() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.file("empty.db").path, contents: nil))
        // What an earlier Lectern left when it was stopped inside its first migration.
        try DatabaseQueue(path: folder.file("half.db").path).write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        for db in ["empty.db", "half.db"] {
            let ingest = try lectern("ingest", "note.md", "--db", db)
            XCTAssertEqual(ingest.status, 0, ingest.stderr)
            XCTAssertEqual(try lectern("search", "osmosis", "--db", db).status, 0)
            XCTAssertEqual(try applicationId(folder.file(db).path), Schema.applicationId, "\(db) is marked a library")
        }
    }

    func testALibraryMadeBeforeTheMarkIsMarkedWhenACommandWritesToIt() throws {
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/library-v1/lectern.sqlite"),
                                         to: folder.file("old.db"))
        XCTAssertEqual(try applicationId(folder.file("old.db").path), 0, "the fixture predates the mark")
        let ingest = try lectern("ingest", "note.md", "--db", "old.db")
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertEqual(try applicationId(folder.file("old.db").path), Schema.applicationId)
        let store = try LibraryStore(path: folder.file("old.db").path, access: .read)
        XCTAssertEqual(try store.setting("library"), "lectern")
        XCTAssertEqual(try store.stats().documents, 12)
    }

    func applicationId(_ path: String) throws -> Int32 {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        }
    }

    // MARK: A library that cannot be written (item F)

    func testALibraryThatCannotBeWrittenCanStillBeSearched() throws {
        let ingest = try lectern("ingest", "note.md")
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        try folder.write("more.md", "# Diffusion\n\nDiffusion spreads molecules out.\n")
        let id = try XCTUnwrap(try LibraryStore(path: folder.file("lectern.db").path, access: .read).allDocuments().first?.shortId)
        XCTAssertEqual(chmod(folder.file("lectern.db").path, 0o444), 0)
        XCTAssertEqual(chmod(folder.path, 0o555), 0)
        let before = try contents()

        let search = try lectern("search", "osmosis", "--json", unprivileged: true)
        XCTAssertEqual(search.status, 0, search.stderr)
        let hits = try JSONDecoder().decode([SearchHit].self, from: Data(search.stdout.utf8))
        XCTAssertEqual(hits.first?.title, "Osmosis")
        for command in [["sources"], ["show", id], ["show", "note.md"], ["stats"], ["runs"]] {
            let result = try runLectern(command, in: folder.url, asUnprivilegedUser: true)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains(command[0] == "runs" ? "ingest" : command[0] == "stats" ? "documents  1" : "Osmosis"),
                          "\(command): \(result.stdout)")
        }
        for command in [["ingest", "more.md"], ["rm", "note.md"], ["prune"], ["summarize"]] {
            let result = try runLectern(command, in: folder.url, asUnprivilegedUser: true)
            XCTAssertEqual(result.status, 1, "\(command)")
            XCTAssertEqual(result.stderr, "lectern: lectern.db: the library is read-only (search, sources, show, stats and runs can still read it)\n",
                           "\(command)")
        }
        XCTAssertEqual(try contents(), before, "nothing was written, no run recorded")
    }
}

/// Results of commands run side by side.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<CommandResult, any Error>] = []
    func append(_ result: Result<CommandResult, any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<CommandResult, any Error>] { lock.withLock { results } }
}
