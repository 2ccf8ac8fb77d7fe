import CSQLite
import GRDB

extension LibraryStore {
    /// `body`'s result and how many virtual-machine steps SQLite took for it on this library's
    /// connection: every row a statement visits, in a table or an index, costs steps, so the
    /// count shows how much of the library a lookup reads without timing it (the tests hold a
    /// hit's lookups to a number of steps that does not grow with its document).
    func countingSteps<T>(_ body: () throws -> T) throws -> (result: T, steps: Int) {
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        try writer.inDatabase { db in
            sqlite3_progress_handler(db.sqliteConnection, 1, { context in
                context?.assumingMemoryBound(to: Int.self).pointee += 1
                return 0
            }, counter)
        }
        defer { try? writer.inDatabase { db in sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) } }
        return (try body(), counter.pointee)
    }
}
