import Foundation
import XCTest

/// A real llama.cpp server (xllamacpp, `Tests/Support/llamaserver.py`) on 127.0.0.1 serving
/// mean-pooled embeddings of Gemma 3 270M, installed by `make llama` (which `make test` runs).
final class LlamaServer {
    let process: Process
    let port: Int

    static var venv: URL { LlamaProcess.venv }

    init(apiKey: String? = nil) throws {
        (process, port) = try LlamaProcess.start(
            script: "llamaserver.py", arguments: apiKey.map { ["--api-key", $0] } ?? [],
            missing: "llama.cpp (xllamacpp) and its model are not installed in \(LlamaProcess.venv.path): run `make llama` (make test does)",
            failed: "the llama.cpp server did not start")
    }

    /// The OpenAI-compatible base URL.
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    func stop() { LlamaProcess.stop(process) }

    deinit { stop() }
}
