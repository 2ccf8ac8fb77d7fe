import Foundation

/// A failure talking to PostgreSQL, in one line that names the server (never the password):
/// `postgres://lectern@db.example:5432/library: cannot connect: Connection refused (…)`.
struct PostgresError: Error, CustomStringConvertible, Equatable, Sendable {
    enum Kind: String, Sendable {
        /// The text is no PostgreSQL URL libpq can read.
        case badURL = "bad_url"
        /// No session: the server cannot be reached, refused the login, or libpq is missing.
        case connection
        /// A statement failed; `sqlState` says why (23505 a unique violation, 40001 a
        /// serialization failure, 55P03 a lock not available, …).
        case query
    }

    var kind: Kind
    /// The server, as `PostgresEndpoint` shows it (or the scheme alone for a bad URL).
    var endpoint: String
    var message: String
    /// The five-character SQLSTATE of a failed statement.
    var sqlState: String?

    var description: String { "\(endpoint): \(message)" }

    /// The same line as a LecternError (code `database`), for the command line's error path.
    var lecternError: LecternError { LecternError(.database, endpoint, message) }
}

extension PostgresError: LocalizedError {
    var errorDescription: String? { description }
}

extension LecternError {
    /// `error` as the one line a command prints: a failure of the PostgreSQL server met in the
    /// middle of a command (a statement that failed, a connection that dropped) becomes a
    /// LecternError naming the server; any other error is returned as it is.
    public static func translating(_ error: any Error) -> any Error {
        (error as? PostgresError)?.lecternError ?? error
    }
}
