import Foundation
import Glibc
import GRDB

/// Opening a library: tell it apart from other files before anything writes to it, make or
/// upgrade it under an exclusive lock (two commands opening a new library at once both
/// succeed), and read one that cannot be written.
extension LibraryStore {
    static func open(path: String, display: String, access: LibraryAccess) throws -> DatabaseQueue {
        let manager = FileManager.default
        let directory = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        let exists = manager.fileExists(atPath: path, isDirectory: &isFolder)
        if isFolder.boolValue { throw notALibrary(display, "a folder") }
        if !exists {
            guard access == .create else { throw noLibrary(display) }
            if !directory.isEmpty && !manager.fileExists(atPath: directory) {
                throw LecternError(.notFound, display, "folder \(directory) does not exist")
            }
        }
        // While another process closes the library's last connection (it checkpoints and removes
        // `-wal` and `-shm`), SQLite answers an open with SQLITE_BUSY at once, without waiting
        // for the busy timeout: two commands started together saw "database is locked". That
        // moment is short, so the open is tried again for up to about ten seconds.
        for attempt in 1... {
            let size = manager.fileExists(atPath: path) ? try fileSize(path, display) : 0
            if size > 0 { try checkHeader(path, display) }
            do {
                if access == .read {
                    // An empty file is a library nobody has made yet.
                    guard size > 0 else { throw noLibrary(display) }
                    return try openForReading(path: path, display: display)
                }
                try checkWritable(path: path, exists: exists, directory: directory, display: display)
                return try openForWriting(path: path, display: display, inspect: size > 0)
            } catch let error as DatabaseError {
                if error.resultCode == .SQLITE_BUSY && attempt < 200 {
                    Thread.sleep(forTimeInterval: 0.05)
                    continue
                }
                if error.resultCode == .SQLITE_NOTADB { throw notALibrary(display, "the file is not an SQLite database") }
                throw LecternError(.database, display, error.message ?? "\(error)")
            }
        }
        fatalError("unreachable: the loop returns or throws")
    }

    static func noLibrary(_ display: String) -> LecternError {
        LecternError(.notFound, display, "no library here yet: run `lectern ingest PATH` first, or pass --db")
    }

    static func notALibrary(_ display: String, _ why: String) -> LecternError {
        LecternError(.database, display, "not a Lectern library (\(why))")
    }

    static func readOnly(_ display: String) -> LecternError {
        LecternError(.database, display, "the library is read-only (search, sources, show, stats and runs can still read it)")
    }

    /// How long a statement waits for another process's lock before it fails.
    static let busyTimeout: TimeInterval = 15

    static func configuration(readonly: Bool) -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.readonly = readonly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // As GRDB sets it for WAL pools: durable at each checkpoint, fast in between.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        return configuration
    }

    static func fileSize(_ path: String, _ display: String) throws -> Int64 {
        if let size = byteSize(path) { return size }
        // What `lstat` refused, in the words FileManager gives it.
        do {
            return ((try FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
        } catch {
            throw LecternError(.unreadable, display, "cannot read: \((error as NSError).localizedFailureReason ?? "\(error)")")
        }
    }

    /// The size of the file at `path` from `lstat(2)`, as `FileManager.attributesOfItem` reads
    /// it; nil when it cannot be read. Every command opening a library asks, and the file
    /// manager also reads /etc/passwd and /etc/group for the names of the owner and group.
    static func byteSize(_ path: String) -> Int64? {
        var facts = stat()
        guard lstat(path, &facts) == 0 else { return nil }
        return Int64(facts.st_size)
    }

    /// Refuses a file that is not SQLite by its first 16 bytes, before SQLite opens it (read with
    /// `open(2)`: a `FileHandle` costs every command's start more than the read).
    static func checkHeader(_ path: String, _ display: String) throws {
        let file = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw LecternError(.unreadable, display, "permission denied") }
        defer { Glibc.close(file) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, 16) }
        if count != 16 || header != Array("SQLite format 3\0".utf8) { throw notALibrary(display, "the file is not an SQLite database") }
    }

    /// A command that writes needs the file and its folder (SQLite writes `-wal` and `-shm` beside it).
    static func checkWritable(path: String, exists: Bool, directory: String, display: String) throws {
        let folder = directory.isEmpty ? "." : directory
        if exists {
            if !canWrite(path) || !canWrite(folder) { throw readOnly(display) }
        } else if !canWrite(folder) {
            throw LecternError(.database, display, "cannot make a library in \(folder): permission denied")
        }
    }

    /// Whether this user may write `path` (its permissions, or a read-only mount).
    static func canWrite(_ path: String) -> Bool {
        FileManager.default.isWritableFile(atPath: path)
    }

    /// What a file holds, asked through a read-only connection: a foreign file is left as it was.
    static func contents(path: String) throws -> Schema.Contents {
        try DatabaseQueue(path: path, configuration: configuration(readonly: true)).read(Schema.contents)
    }

    static func openForWriting(path: String, display: String, inspect: Bool) throws -> DatabaseQueue {
        var needsMigrating = true
        if inspect {
            switch try contents(path: path) {
            case .foreign(let why): throw notALibrary(display, why)
            case .library(let pending): needsMigrating = !pending.isEmpty
            case .empty: break
            }
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: false))
        try queue.writeWithoutTransaction { db in
            if needsMigrating { try migrate(db, display: display) }
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        return queue
    }

    /// Checks what the file holds and applies the missing migrations in ONE exclusive
    /// transaction: a second process opening the same new library waits for it here, then
    /// finds a library with nothing left to do.
    static func migrate(_ db: Database, display: String) throws {
        // Foreign keys are checked once at the end, as SQLite advises for schema changes.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.exclusive) {
            if case .foreign(let why) = try Schema.contents(db) { throw notALibrary(display, why) }
            try Schema.migrate(db)
            if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
                throw LecternError(.database, display, "upgrading the library broke a reference between its tables")
            }
            return .commit
        }
    }

    static func openForReading(path: String, display: String) throws -> DatabaseQueue {
        let directory = (path as NSString).deletingLastPathComponent
        let writable = canWrite(path) && canWrite(directory.isEmpty ? "." : directory)
        let (queue, contents) = try openReadOnly(path: path)
        switch contents {
        case .empty: throw noLibrary(display)
        case .foreign(let why): throw notALibrary(display, why)
        case .library(let pending):
            // Made by an earlier Lectern: upgraded first, when it can be written.
            if !pending.isEmpty && !writable {
                throw LecternError(.database, display, "made by an earlier Lectern and read-only here: it can be read once a command that writes (such as `lectern ingest`) has upgraded it")
            }
            guard writable else { return queue }
            try queue.close()
            if !pending.isEmpty { try openForWriting(path: path, display: display, inspect: true).close() }
            // A connection that may write (the store never does with `.read`) removes the
            // `-wal` and `-shm` files when it closes, as before; a read-only one leaves them.
            return try DatabaseQueue(path: path, configuration: configuration(readonly: false))
        }
    }

    /// A read-only connection and what the file holds. SQLite reads a WAL library only when it
    /// can create `-shm` beside it, or when told the file cannot change (`immutable=1`): that is
    /// how a library on a read-only share or in a read-only folder is read.
    static func openReadOnly(path: String) throws -> (DatabaseQueue, Schema.Contents) {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
            return (queue, try queue.read(Schema.contents))
        } catch let error as DatabaseError where error.resultCode != .SQLITE_NOTADB {
            let directory = (path as NSString).deletingLastPathComponent
            guard !canWrite(directory.isEmpty ? "." : directory) else { throw error }
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            let queue = try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration(readonly: true))
            return (queue, try queue.read(Schema.contents))
        }
    }
}
