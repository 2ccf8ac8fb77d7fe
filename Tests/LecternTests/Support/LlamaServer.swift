import Foundation
import XCTest

/// A real llama.cpp server (xllamacpp, `Tests/Support/llamaserver.py`) on 127.0.0.1 serving
/// mean-pooled embeddings of Gemma 3 270M, installed by `make llama` (which `make test` runs).
final class LlamaServer {
    let process = Process()
    let port: Int
    private let input = Pipe()

    static let venv = TestPaths.packageRoot.appendingPathComponent(".venv-llama")
    static let model = venv.appendingPathComponent("models/gemma-3-270m-q4_k_m.gguf")

    init(apiKey: String? = nil) throws {
        let python = Self.venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: Self.model.path) else {
            throw XCTSkip("llama.cpp (xllamacpp) and its model are not installed in \(Self.venv.path): run `make llama` (make test does)")
        }
        process.executableURL = python
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/Support/llamaserver.py").path, Self.model.path]
            + (apiKey.map { ["--api-key", $0] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw XCTSkip("the llama.cpp server did not start")
        }
        self.port = port
    }

    /// The OpenAI-compatible base URL.
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
