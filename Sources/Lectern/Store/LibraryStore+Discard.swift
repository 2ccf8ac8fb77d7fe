import Foundation
import GRDB

extension LibraryStore {
    /// Removes the library file this store made when nothing was kept in it: no document and no
    /// cached embedding work (a first ingest whose every input failed leaves no empty library
    /// behind, and its run record goes with it). The store is closed when it returns true and
    /// must not be used again. A file that was there before is never removed.
    @discardableResult
    public func discardIfUnused() -> Bool {
        guard createdFile, access != .read else { return false }
        let unused = (try? read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM documents) + (SELECT COUNT(*) FROM embedding_cache)") ?? 0
        }) == 0
        guard unused, (try? writer.close()) != nil else { return false }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        return true
    }
}
