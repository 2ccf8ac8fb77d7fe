import Foundation
import XCTest
@testable import Lectern

/// The installed all-MiniLM-L6-v2 files and the parity fixtures written by
/// bench/minilm_reference.py (Hugging Face tokenizers and sentence-transformers output).
enum MiniLMFixtures {
    /// `$LECTERN_MODELS/all-MiniLM-L6-v2` or the default models folder; `make test` runs
    /// `make model` first, so the tests skip only when run by hand without it.
    static func modelDirectory() throws -> String {
        let base = ProcessInfo.processInfo.environment["LECTERN_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Configuration.defaultModelsDirectory(environment: ProcessInfo.processInfo.environment)
        let directory = base + "/" + MiniLMEmbedder.model
        for file in MiniLMEmbedder.files where !FileManager.default.fileExists(atPath: directory + "/" + file) {
            throw XCTSkip("\(directory)/\(file) is absent: run `make model` (make test does) to run the MiniLM tests")
        }
        return directory
    }

    static func tokenizer() throws -> WordPieceTokenizer {
        try WordPieceTokenizer(vocabularyFile: modelDirectory() + "/vocab.txt")
    }

    /// One process-wide model: loading copies 90 MB of weights.
    nonisolated(unsafe) private static var loaded: MiniLMEmbedder?
    private static let lock = NSLock()

    static func embedder() throws -> MiniLMEmbedder {
        let directory = try modelDirectory()
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        let embedder = try MiniLMEmbedder(directory: directory)
        loaded = embedder
        return embedder
    }

    struct TokenCase: Decodable {
        var source: String
        var text: String
        var count: Int
        var ids: String

        var idList: [Int32] { ids.split(separator: " ").compactMap { Int32($0) } }
    }

    struct TokenFixture: Decodable {
        var tokenizers: String
        var passages: [TokenCase]
        var hard_cases: [TokenCase]
    }

    struct ReferenceCase: Decodable {
        var source: String
        var text: String
        var vector: String

        var values: [Float] {
            guard let data = Data(base64Encoded: vector) else { return [] }
            return data.withUnsafeBytes { raw in
                (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
        }
    }

    struct ReferenceFixture: Decodable {
        var sentence_transformers: String
        var torch: String
        var passages: [ReferenceCase]
    }

    static let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/minilm")

    static func tokens() throws -> TokenFixture {
        try JSONDecoder().decode(TokenFixture.self, from: Data(contentsOf: folder.appendingPathComponent("tokens.json")))
    }

    static func reference() throws -> ReferenceFixture {
        try JSONDecoder().decode(ReferenceFixture.self, from: Data(contentsOf: folder.appendingPathComponent("reference.json")))
    }
}
