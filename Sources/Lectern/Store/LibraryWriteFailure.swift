import CSQLite
import Foundation
import GRDB

extension LibraryStore {
    /// A full disk, a file-size limit or an I/O error on the library file, as one line that
    /// names the library: `lectern.db: cannot write the library: disk I/O error (File too large)`.
    /// Nil for other errors (a constraint, a busy lock), which concern one write, not the file.
    func writeFailure(_ error: DatabaseError) -> LecternError? {
        let reason: String
        switch error.resultCode {
        case .SQLITE_FULL:
            reason = "the disk is full"
        case .SQLITE_IOERR:
            // SQLite keeps the operating system's errno of the failed call (EFBIG, ENOSPC, EIO).
            let errno = writer.writeWithoutTransaction { db in sqlite3_system_errno(db.sqliteConnection) }
            reason = (error.message ?? "disk I/O error") + (errno != 0 ? " (\(String(cString: strerror(errno))))" : "")
        default:
            return nil
        }
        return LecternError(.writeFailed, InputExpander.display(path), "cannot write the library: \(reason)")
    }
}
