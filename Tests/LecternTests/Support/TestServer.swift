import Foundation
import XCTest
@testable import Lectern

/// The loopback test server (`Tests/Support/testserver.py`), a real HTTP server on 127.0.0.1
/// on a free port, started for one test and stopped with it. See the script for the spec.
final class TestServer {
    let process = Process()
    let port: Int
    private let specFile: URL
    /// The server's stderr (tracebacks of a broken handler), for `log`.
    private let logFile: URL

    /// `spec` is `["routes": [path: route], "replay": [[request, response]]]`.
    init(_ spec: [String: Any]) throws {
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/Support/testserver.py")
        specFile = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-server-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, specFile.path]
        let out = Pipe()
        // stderr goes to a file, not a pipe: tracebacks of many aborted transfers must never
        // fill a pipe nobody drains and stall the server.
        logFile = specFile.deletingPathExtension().appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        // The first line is the port; read byte by byte so that nothing else is consumed.
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            process.waitUntilExit()
            let reason = ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
                .split(separator: "\n").last.map(String.init) ?? "no output"
            try? FileManager.default.removeItem(at: specFile)
            try? FileManager.default.removeItem(at: logFile)
            if process.terminationStatus == 127 { throw XCTSkip("python3 is not installed: the loopback test server cannot run") }
            throw LecternError(.invalidInput, script.path, "the loopback test server did not start: \(reason)")
        }
        self.port = port
    }

    convenience init(routes: [String: [String: Any]], replay: [[String: Any]] = []) throws {
        try self.init(["routes": routes, "replay": replay])
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func url(_ path: String) -> String { baseURL + path }

    /// Every request the server received, oldest first: method, path, headers, body, time.
    func requests() throws -> [[String: Any]] {
        let data = try HTTPClient().get(url("/__requests")).body
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: specFile)
        try? FileManager.default.removeItem(at: logFile)
    }

    /// What the server wrote to stderr so far: empty unless a handler failed.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    deinit { stop() }
}
