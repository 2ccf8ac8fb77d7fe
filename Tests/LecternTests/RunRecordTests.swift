import GRDB
import XCTest
@testable import Lectern

/// Run records and the library file's write failures, seen through the store.
final class RunRecordTests: XCTestCase {
    var folder: TemporaryFolder!
    var store: LibraryStore!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("library.db").path)
    }

    /// A run left `running` is listed as interrupted as soon as its process is gone, or its pid
    /// belongs to another program; this process's own run is still running.
    func testARunWhoseProcessIsGoneIsListedAsInterrupted() throws {
        let own = try RunRecorder(store: store, command: "ingest", arguments: [])
        XCTAssertEqual(try store.runs(limit: 1).first?.status, .running)

        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate(); sleeper.waitUntilExit() }
        // The pid of a live program that is not the one that started the run.
        try store.writer.write { db in
            try db.execute(sql: "UPDATE runs SET pid = ? WHERE id = ?", arguments: [Int(sleeper.processIdentifier), own.id])
        }
        XCTAssertEqual(try store.runs(limit: 1).first?.status, .interrupted, "a reused pid is another program")
        // A pid that no process has.
        try store.writer.write { db in try db.execute(sql: "UPDATE runs SET pid = ? WHERE id = ?", arguments: [4_000_000, own.id]) }
        XCTAssertEqual(try store.runs(limit: 1).first?.status, .interrupted)
        try store.writer.write { db in try db.execute(sql: "UPDATE runs SET pid = ? WHERE id = ?", arguments: [Int(getpid()), own.id]) }
        XCTAssertEqual(try store.runs(limit: 1).first?.status, .running)
    }

    func testTheLibraryPassesTheFirstWriteFailureOnAsOneLineNamingIt() throws {
        let error = DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full")
        let failure = try XCTUnwrap(store.writeFailure(error))
        XCTAssertEqual(failure.code, .writeFailed)
        XCTAssertEqual(failure.description, "\(store.path): cannot write the library: the disk is full")
        XCTAssertEqual(BatchStop.of(failure), .libraryUnwritable)
        XCTAssertNil(store.writeFailure(DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed")))
    }
}
