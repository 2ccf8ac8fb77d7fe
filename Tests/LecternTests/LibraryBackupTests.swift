import Foundation
import GRDB
import XCTest
@testable import Lectern

/// "One SQLite file" holds after a write: a writing command leaves its writes in the library file,
/// not in `-wal`, and `lectern backup` copies a library in use, consistently, into one file.
final class LibraryBackupTests: XCTestCase {
    /// Generated notes, one document each.
    func writeNotes(_ folder: TemporaryFolder, _ range: ClosedRange<Int>) throws -> [String] {
        try range.map { number in
            try folder.write("notes/note-\(number).md", "# Note \(number)\n\nZymurgy fact number \(number): yeast turns the sugars of malt into alcohol and carbon dioxide.\n")
            return "notes/note-\(number).md"
        }
    }

    /// The documents `lectern stats` counts in the library at `path`.
    func documents(_ path: String, in folder: TemporaryFolder) throws -> Int? {
        let stats = try runLectern(["stats", "--json", "--db", path], in: folder.url)
        guard stats.status == 0 else { return nil }
        return (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["documents"] as? Int
    }

    func walBytes(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]) as? NSNumber)?.int64Value ?? 0
    }

    func testAfterIngestTheLibraryFileAloneHoldsEveryDocument() throws {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest"] + writeNotes(folder, 1...12), in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        // Before, the writes stayed in a 250 KB lectern.db-wal and a copy of lectern.db alone was empty.
        XCTAssertEqual(walBytes(folder.file("lectern.db").path), 0, "the ingest left its writes in lectern.db-wal")
        try FileManager.default.createDirectory(at: folder.file("copy"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.file("lectern.db"), to: folder.file("copy/lectern.db"))
        XCTAssertEqual(try documents("copy/lectern.db", in: folder), 12)
        // The same for a command that changes a library (rm), and for one that fails part-way.
        let removal = try runLectern(["rm", "notes/note-1.md"], in: folder.url)
        XCTAssertEqual(removal.status, 0, removal.stderr)
        XCTAssertEqual(walBytes(folder.file("lectern.db").path), 0, "rm left its writes in lectern.db-wal")
        let partly = try runLectern(["ingest", "notes/note-2.md", "missing.md"], in: folder.url)
        XCTAssertEqual(partly.status, 1, partly.stderr)
        XCTAssertEqual(walBytes(folder.file("lectern.db").path), 0, "a failing ingest left its writes in lectern.db-wal")
    }

    /// A process reading an older state of the library keeps SQLite from emptying the log: the
    /// ingest still succeeds, says nothing about it, and `lectern backup` copies everything.
    func testBackupWhileAnotherProcessReadsIsComplete() throws {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        let first = try runLectern(["ingest"] + writeNotes(folder, 1...3), in: folder.url)
        XCTAssertEqual(first.status, 0, first.stderr)
        let reader = try DatabaseQueue(path: folder.file("lectern.db").path, configuration: {
            var configuration = GRDB.Configuration()
            configuration.readonly = true
            return configuration
        }())
        try reader.read { db in
            // An open read transaction on the library as the first ingest left it.
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents"), 3)
            let second = try runLectern(["ingest"] + writeNotes(folder, 4...9), in: folder.url)
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertFalse(second.stderr.contains("checkpoint") || second.stderr.contains("locked"), second.stderr)
            XCTAssertGreaterThan(walBytes(folder.file("lectern.db").path), 0, "the reader should have kept the log from being emptied")

            let backup = try runLectern(["backup", "copy.db", "--json"], in: folder.url)
            XCTAssertEqual(backup.status, 0, backup.stderr)
            let summary = try JSONDecoder().decode(BackupSummary.self, from: Data(backup.stdout.utf8))
            XCTAssertEqual(summary.documents, 9)
            XCTAssertEqual(summary.passages, 9)
            XCTAssertEqual(summary.backup, folder.file("copy.db").path)
            XCTAssertEqual(summary.bytes, Int64(try Data(contentsOf: folder.file("copy.db")).count))
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents"), 3, "the reader still sees its own state")
        }
        try reader.close()
        // The copy is one file: nothing beside it, every document in it, and a library of its own.
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("copy.db-wal").path))
        try FileManager.default.createDirectory(at: folder.file("moved"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: folder.file("copy.db"), to: folder.file("moved/copy.db"))
        XCTAssertEqual(try documents("moved/copy.db", in: folder), 9)
        let search = try runLectern(["search", "zymurgy fact number 9", "--db", "moved/copy.db", "-k", "1"], in: folder.url)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("Note 9"), search.stdout)
        // Nothing is left beside the target but the copy.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("lectern-backup") }, [])
    }

    func testBackupRefusesToOverwriteTheLibraryAndNodes() throws {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest"] + writeNotes(folder, 1...2), in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.db").path, withDestinationPath: "lectern.db")
        try FileManager.default.linkItem(at: folder.file("lectern.db"), to: folder.file("hard.db"))
        try FileManager.default.createDirectory(at: folder.file("sub"), withIntermediateDirectories: true)
        let before = try Data(contentsOf: folder.file("lectern.db"))
        for (target, message) in [
            ("lectern.db", "lectern.db: is the library itself: give another file for the copy"),
            ("sub/../lectern.db", "lectern.db: is the library itself: give another file for the copy"),
            ("link.db", "link.db: is the library itself: give another file for the copy"),
            ("hard.db", "hard.db: is the library itself (a link to it): give another file for the copy"),
            ("lectern.db-wal", "lectern.db-wal: belongs to the library (its wal file): give another file for the copy"),
            ("lectern.db.run-lock", "lectern.db.run-lock: belongs to the library (its run-lock file): give another file for the copy"),
            ("sub", "sub: is a folder: give the file to write the copy to"),
            ("/dev/null", "/dev/null: is not a regular file: give the file to write the copy to"),
            ("nowhere/copy.db", "nowhere/copy.db: folder nowhere does not exist"),
        ] {
            let backup = try runLectern(["backup", target], in: folder.url)
            XCTAssertEqual(backup.status, 2, "\(target): \(backup.stderr)")
            XCTAssertEqual(backup.stderr, "lectern: \(message)\n", target)
        }
        XCTAssertEqual(try Data(contentsOf: folder.file("lectern.db")), before)
        XCTAssertEqual(try documents("lectern.db", in: folder), 2)
        // An earlier copy is replaced whole.
        XCTAssertEqual(try runLectern(["backup", "copy.db"], in: folder.url).status, 0)
        XCTAssertEqual(try runLectern(["ingest"] + writeNotes(folder, 3...4), in: folder.url).status, 0)
        let again = try runLectern(["backup", "copy.db"], in: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("lectern.db copied to copy.db: 4 documents, 4 passages, "), again.stdout)
        XCTAssertEqual(try documents("copy.db", in: folder), 4)
    }
}
