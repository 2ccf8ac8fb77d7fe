import Foundation
import XCTest

/// llama.cpp's server (xllamacpp) and Gemma 3 270M as `make llama` installs them in .venv-llama,
/// started through one of the `Tests/Support` scripts, which prints its port as its first line
/// and serves on 127.0.0.1 until its standard input closes.
enum LlamaProcess {
    static let venv = TestPaths.packageRoot.appendingPathComponent(".venv-llama")
    static let model = venv.appendingPathComponent("models/gemma-3-270m-q4_k_m.gguf")

    /// The running process and its port; skips the test (with `missing`) when the venv or the
    /// model is not installed.
    static func start(script: String, arguments: [String], missing: String, failed: String) throws -> (Process, Int) {
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: model.path) else {
            throw XCTSkip(missing)
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/Support/" + script).path, model.path] + arguments
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
            throw XCTSkip(failed)
        }
        return (process, port)
    }

    static func stop(_ process: Process) {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
