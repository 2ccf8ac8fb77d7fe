import Foundation
import XCTest
@testable import Lectern

/// PostgresConnection (libpq through the dlopen shim) against a real PostgreSQL 18 with
/// pgvector (Support/PostgresServer: one server per test process).
final class PostgresConnectionTests: XCTestCase {
    func testConnectsAndRunsParameterisedQueries() throws {
        let server = try PostgresServer.shared()
        let connection = try PostgresConnection(url: server.url)
        XCTAssertGreaterThanOrEqual(connection.serverVersion, 180000, "the wheel's server is PostgreSQL 18")
        // Text parameters, cast by the server; NULL both ways; quotes and non-ASCII unharmed.
        let rows = try connection.query("select $1::int + 1 as next, $2::text as quoted, $3::text is null as missing, null::text as nothing",
                                        ["41", "O'Brien — Ωmega", nil])
        XCTAssertEqual(rows.columns, ["next", "quoted", "missing", "nothing"])
        XCTAssertEqual(rows.rows, [["42", "O'Brien — Ωmega", "t", nil]])
    }

    func testHalfvecColumnWithHNSWIndexRoundTrips() throws {
        // A database of the class's own, empty: no table of another test or run is in the way.
        let connection = try PostgresConnection(url: try PostgresServer.shared().freshDatabase(for: Self.self))
        XCTAssertEqual(try connection.query("select current_database()").scalar, "postgresconnectiontests")
        try connection.query("create extension if not exists vector")
        try connection.query("create table passages_roundtrip (id int primary key, embedding halfvec(3) not null)")
        try connection.query("create index on passages_roundtrip using hnsw (embedding halfvec_cosine_ops)")
        let inserted = try connection.query("insert into passages_roundtrip values (1, $1), (2, $2), (3, $3)",
                                            ["[1,0,0]", "[0,1,0]", "[0.5,0.5,0]"])
        XCTAssertEqual(inserted.affected, 3)
        // Values that fit half precision come back exactly; the nearest by cosine is found through the index.
        XCTAssertEqual(try connection.query("select embedding::text from passages_roundtrip where id = 3").scalar, "[0.5,0.5,0]")
        try connection.query("set enable_seqscan = off")
        let plan = try connection.query("explain select id from passages_roundtrip order by embedding <=> $1::halfvec limit 2", ["[0.9,0.1,0]"])
        XCTAssertTrue(plan.rows.contains { ($0.first ?? nil)?.contains("passages_roundtrip_embedding_idx") == true },
                      "the HNSW index is used: \(plan.rows)")
        let nearest = try connection.query("select id from passages_roundtrip order by embedding <=> $1::halfvec limit 2", ["[0.9,0.1,0]"])
        XCTAssertEqual(nearest.rows.map { $0[0] }, ["1", "3"])
    }

    func testFailedStatementIsOneLineWithItsSQLState() throws {
        let connection = try PostgresConnection(url: try PostgresServer.shared().url)
        XCTAssertThrowsError(try connection.query("select * from no_such_table where id = $1", ["1"])) { error in
            let failure = error as? PostgresError
            XCTAssertEqual(failure?.kind, .query)
            XCTAssertEqual(failure?.sqlState, "42P01")
            XCTAssertEqual("\(error)".split(separator: "\n").count, 1, "\(error)")
            // The server's "relation … does not exist" is said as Lectern says it: the table named,
            // and what an older, newer or damaged library needs.
            XCTAssertTrue("\(error)".contains("the library has no table \"no_such_table\""), "\(error)")
            XCTAssertFalse("\(error)".contains("relation"), "\(error)")
        }
        // The session survives a failed statement.
        XCTAssertEqual(try connection.query("select 1").scalar, "1")
    }

    func testWrongPasswordIsOneLineWithoutThePassword() throws {
        let server = try PostgresServer.shared()
        let wrong = "hunter2-not-the-password"
        XCTAssertThrowsError(try PostgresConnection(url: server.url(password: wrong))) { error in
            let line = "\(error)"
            XCTAssertEqual((error as? PostgresError)?.kind, .connection)
            XCTAssertEqual(line.split(separator: "\n").count, 1, line)
            XCTAssertTrue(line.contains("password authentication failed for user \"lectern\""), line)
            XCTAssertTrue(line.hasPrefix("postgres://lectern@127.0.0.1:\(server.port)/postgres: "), line)
            for shown in [line, error.localizedDescription, (error as? PostgresError)?.lecternError.description ?? ""] {
                XCTAssertFalse(shown.contains(wrong), "the password leaked: \(shown)")
                XCTAssertFalse(shown.contains(server.password), "the password leaked: \(shown)")
            }
        }
        // The endpoint a store would describe itself by carries no password either.
        let endpoint = try XCTUnwrap(PostgresEndpoint(url: server.url))
        XCTAssertEqual(endpoint.description, "postgres://lectern@127.0.0.1:\(server.port)/postgres")
        XCTAssertEqual(endpoint.scrubbed("echo \(server.password)", environment: [:]), "echo •••")
    }

    func testUnreachablePortIsOneLineNamingHostAndPort() throws {
        _ = try PostgresServer.shared()
        // A port nothing listens on: bound, then released.
        let socket = try XCTUnwrap(TCPListener())
        let port = socket.port
        socket.close()
        let started = Date()
        XCTAssertThrowsError(try PostgresConnection(url: "postgres://lectern:secret-pw@127.0.0.1:\(port)/postgres")) { error in
            let line = "\(error)"
            XCTAssertEqual(line.split(separator: "\n").count, 1, line)
            XCTAssertTrue(line.contains("127.0.0.1:\(port)"), line)
            XCTAssertTrue(line.contains("Connection refused"), line)
            XCTAssertFalse(line.contains("secret-pw"), line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "a refused connection fails at once")
    }

    func testNotAURLIsOneLine() {
        XCTAssertThrowsError(try PostgresConnection(url: "library.db")) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .badURL)
            XCTAssertTrue("\(error)".contains("postgres://user@host:port/dbname"), "\(error)")
        }
        XCTAssertTrue(PostgresEndpoint.isURL("postgresql://u@h/db"))
        XCTAssertFalse(PostgresEndpoint.isURL("~/library.db"))
    }
}

/// A TCP socket bound to a free port on 127.0.0.1, to find a port nothing listens on.
private final class TCPListener {
    private let descriptor: Int32
    let port: Int

    init?() {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { Glibc.close(descriptor); return nil }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
