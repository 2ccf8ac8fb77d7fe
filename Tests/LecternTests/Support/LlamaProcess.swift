import Foundation
import XCTest

/// llama.cpp's server (xllamacpp) and Gemma 3 270M as `make llama` installs them in .venv-llama,
/// started through one of the `Tests/Support` scripts, which prints its port as its first line
/// and serves on 127.0.0.1 until its standard input closes.
enum LlamaProcess {
    static let venv = TestPaths.packageRoot.appendingPathComponent(".venv-llama")
    static let model = venv.appendingPathComponent("models/gemma-3-270m-q4_k_m.gguf")

    /// An installed server that did not come up: a test failure, with what the server said.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    static let installHint = "run `make llama` (make test does)"

    /// Skips the calling test, naming `make llama`, where the venv or the model is absent.
    static func requireInstalled(skipping what: String) throws {
        guard FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("bin/python").path),
              FileManager.default.fileExists(atPath: model.path) else {
            throw XCTSkip("llama.cpp (xllamacpp) and Gemma 3 270M are not installed in \(venv.path): \(installHint); skipping \(what)")
        }
    }

    /// The running process and its port. Skips the test (with `missing`) only when `make llama`
    /// could not install the venv or the model; when they are there but the server does not
    /// start, throws a `StartFailure` (`failed` and the tail of the server's stderr).
    static func start(script: String, arguments: [String], model: URL = model, missing: String, failed: String) throws -> (Process, Int) {
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
        // A file, not a pipe: llama.cpp logs every request, and nobody drains a pipe while tests run.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-llama-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }  // the server keeps writing to its open handle
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            stop(process)
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let tail = said.split(separator: "\n").suffix(12).joined(separator: "\n")
            throw StartFailure(description: "\(failed) (exit status \(process.terminationStatus)); its stderr ends:\n\(tail.isEmpty ? "(nothing)" : tail)")
        }
        return (process, port)
    }

    static func stop(_ process: Process) {
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
    }
}
