import CPostgres
import Foundation

/// One session with a PostgreSQL server through libpq (loaded on first use): parameterised
/// statements with text parameters, rows as text. Not shared between threads (a libpq
/// connection is not); a store keeps one per thread or behind its own lock.
final class PostgresConnection {
    let endpoint: PostgresEndpoint
    private let connection: OpaquePointer
    /// Statements sent so far: each is a round trip to the server, which is what an operation
    /// on a small library costs (the tests hold opening and searching to a few).
    private(set) var statements = 0
    /// The transactions open (`transaction`): 0 outside one, 2 in a savepoint inside one.
    private var transactionDepth = 0

    /// Connects to `url` (`postgres://user@host:port/dbname`, with any libpq parameter such as
    /// `sslmode` in its query). The password comes from the URL, else libpq's own PGPASSWORD and
    /// ~/.pgpass. `connectTimeout` (seconds) applies unless the URL sets `connect_timeout`.
    init(url: String, connectTimeout: Int = 10) throws {
        guard let endpoint = PostgresEndpoint(url: url) else {
            throw PostgresError(kind: .badURL, endpoint: "database URL",
                                message: "not a PostgreSQL URL: expected postgres://user@host:port/dbname")
        }
        self.endpoint = endpoint
        do {
            try SystemLibrary.postgres.load()
        } catch {
            throw PostgresError(kind: .connection, endpoint: endpoint.description, message: "\(error)")
        }
        // `dbname` last and expanded: the URL's own parameters override the defaults before it.
        let settings = [
            ("connect_timeout", String(connectTimeout)),
            ("client_encoding", "UTF8"),
            ("fallback_application_name", "lectern"),
            ("dbname", url),
        ]
        let connection = withCStrings(settings.map(\.0)) { keywords in
            withCStrings(settings.map(\.1)) { values in
                lazy_PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, endpoint: endpoint.description, message: "cannot connect: libpq is out of memory")
        }
        guard lazy_PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.connectionFailure(lazy_PQerrorMessage(connection).map { String(cString: $0) } ?? "", endpoint: endpoint)
            lazy_PQfinish(connection)
            throw PostgresError(kind: .connection, endpoint: endpoint.description, message: reason)
        }
        lectern_pq_quiet(connection)
        self.connection = connection
    }

    deinit {
        lazy_PQfinish(connection)
    }

    /// The server's version as a number: 180006 for 18.6.
    var serverVersion: Int { Int(lazy_PQserverVersion(connection)) }

    /// Runs one statement with `$1, $2, …` bound to `parameters` as text (nil is NULL; the
    /// server casts each to the type the statement needs), and returns its rows as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws -> PostgresRows {
        let result = try execute(sql, parameters, binary: false)
        defer { lazy_PQclear(result) }
        let columnCount = Int(lazy_PQnfields(result))
        let rowCount = Int(lazy_PQntuples(result))
        let columns = (0..<columnCount).map { lazy_PQfname(result, Int32($0)).map { String(cString: $0) } ?? "" }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            rows.append((0..<Int32(columnCount)).map { column in
                lazy_PQgetisnull(result, row, column) != 0 ? nil : lazy_PQgetvalue(result, row, column).map { String(cString: $0) }
            })
        }
        let affected = lazy_PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        return PostgresRows(columns: columns, rows: rows, affected: affected)
    }

    /// Runs one statement as `query` does, and lets `body` read its rows in PostgreSQL's binary
    /// form where libpq holds them (no copy, no text to parse: a keyword search's postings).
    func withBinaryRows<T>(_ sql: String, _ parameters: [String?] = [], _ body: (PostgresBinaryRows) throws -> T) throws -> T {
        let result = try execute(sql, parameters, binary: true)
        defer { lazy_PQclear(result) }
        return try body(PostgresBinaryRows(result: result, count: Int(lazy_PQntuples(result))))
    }

    /// The result of one statement, its rows as text or binary; a failure as one line.
    private func execute(_ sql: String, _ parameters: [String?], binary: Bool, expecting copy: ExecStatusType? = nil) throws -> OpaquePointer {
        statements += 1
        let result = withOptionalCStrings(parameters) { values in
            lazy_PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, binary ? 1 : 0)
        }
        guard let result else { throw connectionFailure() }
        switch lazy_PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return result
        case let status where status == copy:
            return result
        default:
            defer { lazy_PQclear(result) }
            throw failure(result)
        }
    }

    /// Writes `rows` into `table`'s `columns` with one `COPY … FROM STDIN` (PostgreSQL's text
    /// form, nil for NULL): the rows stream to the server without a statement to parse and
    /// plan for each few hundred of them, or every value bound as a parameter.
    func copy(into table: String, columns: [String], rows: [[String?]]) throws {
        guard !rows.isEmpty else { return }
        let start = try execute("copy \(table) (\(columns.joined(separator: ", "))) from stdin", [], binary: false, expecting: PGRES_COPY_IN)
        lazy_PQclear(start)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        func send() throws {
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    lazy_PQputCopyData(connection, $0, Int32(bytes.count))
                }
            }
            buffer.removeAll(keepingCapacity: true)
            guard sent == 1 else { throw connectionFailure() }
        }
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.append(0x09) }
                guard let value else {
                    buffer.append(contentsOf: [0x5C, 0x4E])  // \N
                    continue
                }
                for byte in value.utf8 {
                    switch byte {
                    case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
                    case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
                    case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
                    case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
                    default: buffer.append(byte)
                    }
                }
            }
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 { try send() }
        }
        if !buffer.isEmpty { try send() }
        guard lazy_PQputCopyEnd(connection, nil) == 1 else { throw connectionFailure() }
        // The copy's outcome, then nil: every result is read, so the session is free again.
        var outcome: PostgresError?
        while let result = lazy_PQgetResult(connection) {
            if outcome == nil, lazy_PQresultStatus(result) != PGRES_COMMAND_OK { outcome = failure(result) }
            lazy_PQclear(result)
        }
        if let outcome { throw outcome }
    }

    /// The session's own last error (a lost connection) as one line.
    private func connectionFailure() -> PostgresError {
        let reason = lazy_PQerrorMessage(connection).map { String(cString: $0) } ?? "no result"
        return PostgresError(kind: .query, endpoint: endpoint.description, message: endpoint.scrubbed(Self.firstLine(reason)))
    }

    /// A failed statement's error as one line, with its SQLSTATE.
    private func failure(_ result: OpaquePointer) -> PostgresError {
        let primary = lazy_PQresultErrorField(result, lectern_pq_diag_message_primary).map { String(cString: $0) }
        let whole = lazy_PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        let state = lazy_PQresultErrorField(result, lectern_pq_diag_sqlstate).map { String(cString: $0) }
        var reason = endpoint.scrubbed(Self.firstLine(primary ?? whole))
        if state == "42P01" { reason = Self.missingTable(reason) }
        return PostgresError(kind: .query, endpoint: endpoint.description,
                             message: state.map { "\(reason) (SQLSTATE \($0))" } ?? reason, sqlState: state)
    }

    /// libpq's multi-line message as one line: `cannot connect: <why>`, without its
    /// `connection to server at "h", port p failed:` prefix (the endpoint already names it).
    static func connectionFailure(_ message: String, endpoint: PostgresEndpoint) -> String {
        var reason = firstLine(message)
        if reason.hasPrefix("connection to server"), let failed = reason.range(of: " failed: ") {
            reason = String(reason[failed.upperBound...])
        }
        if reason.hasPrefix("FATAL:") {
            reason = String(reason.dropFirst("FATAL:".count)).trimmingCharacters(in: .whitespaces)
        }
        if reason.isEmpty { reason = "no reason given" }
        if reason.localizedCaseInsensitiveContains("connection refused") {
            reason += " (is PostgreSQL running and listening on \(endpoint.address)?)"
        }
        return endpoint.scrubbed("cannot connect: \(reason)")
    }

    /// The server's `relation "passages" does not exist` as what it means for a library: its
    /// tables are not the ones this Lectern knows.
    static func missingTable(_ message: String) -> String {
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
        let table = parts.count >= 3 ? "table \"\(parts[1])\"" : "table it needs"
        return "the library has no \(table): it is older than this Lectern and was only read since (a command that writes, "
            + "such as `lectern ingest`, brings its tables up to date), newer (use the Lectern that made it), or damaged"
    }

    static func firstLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }
}

/// A statement's rows, each value as PostgreSQL's text form (nil for NULL).
struct PostgresRows: Sendable {
    var columns: [String]
    var rows: [[String?]]
    /// The rows an INSERT, UPDATE or DELETE touched.
    var affected: Int

    var count: Int { rows.count }

    /// The first row's first value: the answer of `select count(*) …`.
    var scalar: String? { rows.first?.first ?? nil }
}

/// A statement's rows in PostgreSQL's binary form, valid while `withBinaryRows` runs its body:
/// integers big-endian, `bytea` as its bytes.
struct PostgresBinaryRows {
    fileprivate let result: OpaquePointer
    let count: Int

    /// A `bigint`, `integer` or `smallint` column's value; 0 for NULL.
    func int64(_ row: Int, _ column: Int) -> Int64 {
        let bytes = self.bytes(row, column)
        switch bytes.count {
        case 8: return Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        case 4: return Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
        case 2: return Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self)))
        default: return 0
        }
    }

    /// The value's bytes (none for NULL).
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let (row, column) = (Int32(row), Int32(column))
        guard lazy_PQgetisnull(result, row, column) == 0, let start = lazy_PQgetvalue(result, row, column) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: start, count: Int(lazy_PQgetlength(result, row, column)))
    }
}

/// `body` with the strings as a C array of C strings, alive for the call.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    withOptionalCStrings(strings, body)
}

private func withOptionalCStrings<Result>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension PostgresConnection {
    /// The rows of `sql` decoded as `T` (a record whose coding keys are the column names, as
    /// GRDB decodes the SQLite library's): the server writes each row as JSON (`row_to_json`),
    /// so numbers stay numbers, NULL is absent and a column cast to `json` is a nested value.
    func records<T: Decodable>(_ type: T.Type, _ sql: String, _ parameters: [String?] = []) throws -> [T] {
        let decoder = JSONDecoder()
        return try query("select row_to_json(r)::text from (\(sql)) r", parameters).rows.map { row in
            do {
                return try decoder.decode(T.self, from: Data((row[0] ?? "null").utf8))
            } catch {
                throw PostgresError(kind: .query, endpoint: endpoint.description,
                                    message: "the library holds a value this Lectern cannot read (written by a later version?): \(error)")
            }
        }
    }

    /// `body` in one transaction: committed when it returns, rolled back when it throws. Inside
    /// another, a savepoint, as GRDB's `inSavepoint` nests in the SQLite library: released when
    /// `body` returns (its writes then stand or fall with the outer transaction), rolled back to
    /// when it throws (the outer one goes on without them, as after a caught error in SQLite).
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let (begin, commit, rollback) = depth == 0 ? ("begin", "commit", ["rollback"])
            : ("savepoint lectern_\(depth)", "release savepoint lectern_\(depth)",
               ["rollback to savepoint lectern_\(depth)", "release savepoint lectern_\(depth)"])
        try query(begin)
        transactionDepth += 1
        defer { transactionDepth = depth }
        do {
            let result = try body()
            try query(commit)
            return result
        } catch {
            for statement in rollback { _ = try? query(statement) }
            throw error
        }
    }
}
