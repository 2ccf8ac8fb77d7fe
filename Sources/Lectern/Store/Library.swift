import Foundation

/// A study library on either backend: one SQLite file (`LibraryStore`) or a PostgreSQL
/// database (`PostgresLibrary`), chosen by its location (a path or a `postgres://` URL). What
/// ingest, search, show, sources, stats, rm and prune work through; nothing above Store/ asks
/// which backend it holds.
public struct Library: Sendable {
    let backend: any LibraryBackend

    /// A SQLite library already open.
    public init(_ store: LibraryStore) {
        backend = store
    }

    init(backend: any LibraryBackend) {
        self.backend = backend
    }

    /// Opens the library at `location`: a PostgreSQL URL (its schema brought up to date), else
    /// a SQLite file at that absolute path, shown as `display`, for `access`.
    public static func open(_ location: String, display: String? = nil, access: LibraryAccess) throws -> Library {
        if LibraryURL.isPostgres(location) {
            do {
                return Library(backend: try PostgresLibrary(url: location, access: access))
            } catch let error as PostgresError {
                throw error.lecternError
            }
        }
        return Library(try LibraryStore(path: location, display: display, access: access))
    }

    /// How messages name the library: a path, or its URL without the password.
    public var display: String { backend.display }

    /// The library as the commands that keep their records only in a SQLite library use it
    /// (runs' listings); on PostgreSQL, one line naming what is not supported there yet.
    public func sqliteStore(for what: String) throws -> LibraryStore {
        if let store = backend as? LibraryStore { return store }
        throw LecternError(.unsupported, display, "\(what) not kept in a library on PostgreSQL yet: give a library file (--db FILE)")
    }

    /// Files an export must never replace: a SQLite library's file and its companions.
    public var protectedPaths: ProtectedPaths { backend.protectedPaths }

    /// What `lectern stats` shows.
    public func stats() throws -> LibraryStats {
        try translated { try backend.stats() }
    }

    /// Waits while another process holds the library's writer lock (a `lectern run` updating
    /// it), calling `waiting` once first; stops at `cancellation`.
    public func waitWhileWriterLocked(cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void) throws {
        try translated { try backend.waitWhileWriterLocked(cancellation: cancellation, waiting: waiting) }
    }

    /// Runs `body` holding the library's writer lock (`lectern run`: one at a time per
    /// library, across machines on PostgreSQL), given the holder a lock left behind it that is
    /// gone. Held: throws `RunLock.Held`, or with `wait` calls `waiting` once and waits.
    /// The keyword postings put back in term order where the backend keeps them apart
    /// (`LibraryBackend.orderKeywordPostings`); whether it did.
    @discardableResult
    public func orderKeywordPostings() throws -> Bool {
        try translated { try backend.orderKeywordPostings() }
    }

    public func withWriterLock<T>(wait: Bool, cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void,
                                  _ body: (RunLock.Holder?) throws -> T) throws -> T {
        try translated { try backend.withWriterLock(wait: wait, cancellation: cancellation, waiting: waiting, body) }
    }

    /// The newest runs first (`lectern runs`); `id`: that run only (`lectern runs show ID`).
    public func runs(limit: Int = 20, id: Int64? = nil) throws -> [RunRecord] {
        try translated { try backend.runs(limit: limit, id: id) }
    }

    /// The last `limit` model calls (all when nil), newest first (`lectern logs`).
    public func modelCallLog(limit: Int?, template: String? = nil) throws -> [ModelCallLog] {
        try translated { try backend.modelCallLog(limit: limit, template: template) }
    }

    /// A SQLite library this process made that holds nothing is removed again (a first ingest
    /// whose every input failed); a PostgreSQL database is never dropped.
    @discardableResult
    public func discardIfUnused() -> Bool {
        (backend as? LibraryStore)?.discardIfUnused() ?? false
    }

    /// A failure of the server as the one line a command prints.
    func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw error.lecternError
        }
    }
}

extension RunRecorder {
    /// Records the run in `library`'s runs.
    public convenience init(library: Library, command: String, arguments: [String]) throws {
        try self.init(log: library.backend, command: command, arguments: arguments)
    }
}
