import CSQLite
import Foundation
import GRDB

extension LibraryStore {
    /// A full disk, a file-size limit or an I/O error on the library file, as one line that
    /// names the library: `lectern.db: cannot write the library: the disk is full`. Nil for other
    /// errors (a constraint, a busy lock), which concern one write, not the file.
    func writeFailure(_ error: DatabaseError) -> LecternError? {
        guard error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR else { return nil }
        return LecternError(.writeFailed, display, "cannot write the library: \(writeFailureReason(error))")
    }

    /// SQLite says "disk I/O error" for a write refused by a file-size limit (EFBIG) and "database
    /// or disk is full" for ENOSPC: the file system says which, and how to get past it.
    func writeFailureReason(_ error: DatabaseError) -> String {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            let largest = [path, path + "-wal", path + "-journal"].compactMap { file in
                (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.uint64Value
            }.max() ?? 0
            if largest + 65_536 >= UInt64(limit.rlim_cur) {
                return "the file-size limit (ulimit -f) of \(ByteCountFormatter.string(fromByteCount: Int64(limit.rlim_cur), countStyle: .binary)) is reached"
            }
        }
        var volume = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        if statvfs(folder.isEmpty ? "." : folder, &volume) == 0, UInt64(volume.f_bavail) * UInt64(volume.f_frsize) < 1 << 20 {
            return "the disk is full"
        }
        if error.resultCode == .SQLITE_FULL { return "the disk is full" }
        // SQLite keeps the operating system's errno of a failed I/O call.
        let errno = writer.writeWithoutTransaction { db in sqlite3_system_errno(db.sqliteConnection) }
        return (error.message ?? "disk I/O error") + (errno != 0 ? " (\(String(cString: strerror(errno))))" : "")
    }
}
