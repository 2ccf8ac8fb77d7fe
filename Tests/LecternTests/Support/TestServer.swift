import Foundation
import XCTest
@testable import Lectern

/// The loopback test server (`Tests/Support/testserver.py`), a real HTTP server on 127.0.0.1
/// on a free port, started for one test and stopped with it. See the script for the spec.
final class TestServer {
    let process = Process()
    let port: Int
    private let specFile: URL

    /// `spec` is `["routes": [path: route], "replay": [[request, response]]]`.
    init(_ spec: [String: Any]) throws {
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/Support/testserver.py")
        specFile = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-server-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, specFile.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
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
            throw XCTSkip("the loopback test server did not start (python3 missing?)")
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
    }

    deinit { stop() }
}
