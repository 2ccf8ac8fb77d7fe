import Foundation

/// A PostgreSQL library's URL (`postgres://user[:password]@host[:port]/dbname[?sslmode=…]`) as it
/// may be shown: user, host, port and database, never the password. libpq gets the URL itself
/// (so every parameter it knows, `sslmode` included, works); this is what errors name.
struct PostgresEndpoint: CustomStringConvertible, Equatable, Sendable {
    var user: String?
    /// Empty when the URL names none: libpq then uses its Unix socket.
    var host: String
    var port: Int
    var database: String?
    /// The password the URL carries (percent-decoded), only to scrub it from libpq's messages.
    fileprivate(set) var password: String?

    /// Whether `text` is a PostgreSQL URL rather than a path (`--db`, `LECTERN_DB` and the
    /// config file's `database` key must recognise one before reading a path).
    static func isURL(_ text: String) -> Bool {
        LibraryURL.isPostgres(text)
    }

    /// Nil when `url` is no PostgreSQL URL or cannot be parsed.
    init?(url: String) {
        guard Self.isURL(url), let components = URLComponents(string: url) else { return nil }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
    }

    /// `postgres://user@host:port/dbname`: the URL without its password and parameters.
    var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : (host.isEmpty ? "localhost" : host)
        return "postgres://\(user.map { "\($0)@" } ?? "")\(shownHost):\(port)/\(database ?? "")"
    }

    /// `host:port`, as a message about reaching the server names it.
    var address: String {
        "\(host.isEmpty ? "localhost" : host):\(port)"
    }

    /// `text` with every password libpq may have been given (the URL's, PGPASSWORD) replaced:
    /// libpq's messages do not quote it today, and an error must not start to when one does.
    func scrubbed(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var result = text
        let secrets = [password, environment["PGPASSWORD"]].compactMap { $0 }.filter { !$0.isEmpty }
        for secret in secrets {
            result = result.replacingOccurrences(of: secret, with: "•••")
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: "•••")
            }
        }
        return result
    }
}

extension LibraryURL {
    /// The commands that work on a library on PostgreSQL (`Library`); the others refuse one.
    public static let postgresCommands = ["ingest", "search", "show", "sources", "stats", "rm", "prune", "reembed",
                                          "summarize", "ask", "curriculum", "cards", "context", "run", "runs", "logs", "worker"]

    /// A PostgreSQL URL as messages show it: without its password and parameters.
    public static func shown(_ url: String) -> String {
        PostgresEndpoint(url: url)?.description ?? "postgres://…"
    }

    /// Why `command` refuses `url` as its library today: it keeps records only a SQLite library
    /// holds so far (runs' listings). One line naming the command
    /// and the server without its password.
    public static func commandsRefusal(_ url: String, command: String = "this command") -> LecternError {
        let shown = PostgresEndpoint(url: url)?.description ?? "postgres://…"
        let moved = postgresCommands.joined(separator: ", ")
        return LecternError(.unsupported, shown, "\(command) does not work on a library on PostgreSQL yet (\(moved) do): give a library file (--db FILE)")
    }
}
