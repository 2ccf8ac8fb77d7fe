import Foundation
import XCTest
@testable import Lectern

/// llama.cpp's server with Gemma 3 270M (`make llama` installs both in .venv-llama),
/// started by `Tests/Support/llm_server.py` on 127.0.0.1 on a free port and stopped with the
/// tests. It speaks the OpenAI chat-completions format and enforces JSON schemas.
final class LocalModelServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    static let contextTokens = 2048

    static var venv: URL { TestPaths.packageRoot.appendingPathComponent(".venv-llama") }
    static var model: URL { venv.appendingPathComponent("models/gemma-3-270m-q4_k_m.gguf") }

    init() throws {
        let python = Self.venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: Self.model.path) else {
            throw XCTSkip("the local model is not installed (\(Self.model.path)): run `make llama` (make test does); skipping the real-model tests")
        }
        process.executableURL = python
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/Support/llm_server.py").path,
                             Self.model.path, String(Self.contextTokens)]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = Pipe()  // the server exits when this closes
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw XCTSkip("the local model server did not start (see Tests/Support/llm_server.py)")
        }
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// A number from the server's Prometheus metrics (`llamacpp:tokens_predicted_total` …).
    func metric(_ name: String) throws -> Double {
        let text = try HTTPClient().get("http://127.0.0.1:\(port)/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        throw LecternError(.notFound, name, "no such metric")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
