import Foundation
import GRDB

extension LibraryStore {
    /// Moves what the write-ahead log holds into the library file and empties the log
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so that the file alone is the whole library: what a
    /// writing command does before it exits, since a plain `cp library.db` leaves the `-wal`
    /// behind. Best-effort and silent: while another process reads an older state of the
    /// library, SQLite cannot take the log's pages yet, and this returns at once instead of
    /// waiting out the busy timeout (the log stays valid, and the next checkpoint takes it).
    public func checkpoint() {
        guard access != .read else { return }
        try? writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.busyTimeout * 1000))") }
            _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Copies the library into a new SQLite file at `destination` with SQLite's online backup
    /// API, in one step inside one read transaction: a consistent copy of the library as it is
    /// now, the log's latest writes included, while other processes go on reading and writing.
    /// The copy is a single file (no `-wal` beside it). Its documents and passages, counted in the copy.
    func copy(to destination: String, display: String) throws -> (documents: Int, passages: Int) {
        do {
            let copy = try DatabaseQueue(path: destination)
            try writer.backup(to: copy)
            let counts = try copy.writeWithoutTransaction { db in
                // A library is kept in WAL mode; its copy is one file until a command opens it.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                return (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0,
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passages") ?? 0)
            }
            try copy.close()
            return counts
        } catch let error as DatabaseError {
            throw LecternError(error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR ? .writeFailed : .database,
                               display, "cannot write the copy: \(error.message ?? "\(error)")")
        }
    }
}
