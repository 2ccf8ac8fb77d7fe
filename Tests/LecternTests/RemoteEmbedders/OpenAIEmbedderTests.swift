import XCTest
@testable import Lectern

/// The OpenAI-compatible embedder against a real llama.cpp server on loopback (Gemma 3 270M,
/// mean pooling): what OpenAI, vLLM, LM Studio and llama.cpp all speak.
final class OpenAIEmbedderTests: XCTestCase {
    func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }

    func testEmbedsInOrderWithTheServersDimension() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        var configuration = Configuration()
        configuration.embedding.url = server.baseURL
        let embedder = try EmbedderCatalog.make("openai:gemma3-270m", configuration: configuration)
        XCTAssertEqual(embedder.info.name, "openai:gemma3-270m")
        XCTAssertEqual(embedder.info.dimension, 640, "found by one probe request")

        let texts = ["The mitochondrion produces ATP.", "Gutenberg printed the Bible around 1455.", "The mitochondrion produces ATP."]
        let vectors = try embedder.embed(texts)
        XCTAssertEqual(vectors.count, 3)
        for vector in vectors {
            XCTAssertEqual(vector.count, 640)
            XCTAssertEqual(vector.reduce(0) { $0 + $1 * $1 }, 1, accuracy: 1e-4)
        }
        XCTAssertGreaterThan(cosine(vectors[0], vectors[2]), 0.999, "the same text, the same vector")
        XCTAssertLessThan(cosine(vectors[0], vectors[1]), 0.99)
        let alone = try embedder.embed(texts[1])
        XCTAssertGreaterThan(cosine(alone, vectors[1]), 0.99, "answers come back in the order asked")
    }

    func testKeyComesFromTheNamedVariableAndNeverShows() throws {
        let key = "sk-lectern-test-\(UUID().uuidString)"
        let server = try LlamaServer(apiKey: key)
        defer { server.stop() }
        var configuration = Configuration()
        configuration.embedding.url = server.baseURL
        configuration.embedding.dimensions = 640
        configuration.embedding.apiKeyEnv = "LECTERN_TEST_EMBEDDING_KEY"

        let keyed = try RemoteEmbedder(.openAI, model: "gemma3-270m", settings: configuration.embedding,
                                       environment: ["LECTERN_TEST_EMBEDDING_KEY": key])
        XCTAssertEqual(try keyed.embed(["a passage"]).first?.count, 640)

        XCTAssertThrowsError(try RemoteEmbedder(.openAI, model: "gemma3-270m", settings: configuration.embedding, environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("LECTERN_TEST_EMBEDDING_KEY is not set"), "\(error)")
        }
        let wrong = "sk-wrong-\(UUID().uuidString)"
        let refused = try RemoteEmbedder(.openAI, model: "gemma3-270m", settings: configuration.embedding,
                                         environment: ["LECTERN_TEST_EMBEDDING_KEY": wrong])
        XCTAssertThrowsError(try refused.embed(["a passage"])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("HTTP 401"), text)
            XCTAssertFalse(text.contains(wrong), "the key never reaches an error message")
        }
    }

    /// llama.cpp never repeats a key, but OpenAI's 401 does in part ("Incorrect API key provided:
    /// sk-abcd****wxyz", https://platform.openai.com/docs/guides/error-codes): replayed on the
    /// loopback server, the echoed prefix and suffix are redacted as the language model's are.
    func testAPartialEchoOfTheKeyInAnEmbeddingsErrorIsRedacted() throws {
        let key = "sk-proj-lectern-embed-5e8a1f3b9c2d7046"
        let echo = "Incorrect API key provided: \(key.prefix(8))**********************\(key.suffix(4)). You can find your API key at https://platform.openai.com/account/api-keys."
        let server = try TestServer(routes: ["/v1/embeddings": ["status": 401, "json": [
            "error": ["message": echo, "type": "invalid_request_error", "param": NSNull(), "code": "invalid_api_key"],
        ]]])
        defer { server.stop() }
        var settings = RemoteEmbeddingSettings(url: server.url("/v1"), apiKeyEnv: "LECTERN_TEST_EMBEDDING_KEY", dimensions: 640)
        settings.batch = 8
        let embedder = try RemoteEmbedder(.openAI, model: "text-embedding-3-small", settings: settings,
                                          environment: ["LECTERN_TEST_EMBEDDING_KEY": key])
        XCTAssertThrowsError(try embedder.embed(["a passage"])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("HTTP 401"), text)
            XCTAssertTrue(text.contains("Incorrect API key provided: ***"), text)
            XCTAssertFalse(text.contains(String(key.prefix(8))), "the key's prefix is shown: \(text)")
            XCTAssertFalse(text.contains(String(key.suffix(4))), "the key's suffix is shown: \(text)")
        }
        let sent = try server.requests().first?["headers"] as? [String: String]
        XCTAssertEqual(sent?["authorization"], "Bearer \(key)", "the key was sent, so there was something to leak")
    }

    func testIngestAndSearchThroughTheServer() throws {
        guard FileManager.default.isExecutableFile(atPath: TestPaths.lecternBinary.path) else {
            throw XCTSkip("the lectern binary is not built")
        }
        let server = try LlamaServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let environment = ["LECTERN_EMBEDDER": "openai:gemma3-270m", "LECTERN_EMBEDDING_URL": server.baseURL]
        // Two notes: Gemma 270M on two shared cores takes seconds per batch.
        let notes = ["notes/printing-press.txt", "notes/chain-rule.md"].map { TestPaths.corpora.appendingPathComponent($0).path }
        let ingest = try runLectern(["ingest"] + notes, in: folder.url, environment: environment)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let stats = try JSONDecoder().decode(LibraryStats.self, from: Data(try runLectern(["stats", "--json"], in: folder.url,
                                                                                           environment: environment).stdout.utf8))
        XCTAssertEqual(stats.embedder, "openai:gemma3-270m (gemma3-270m, 640 dimensions)")
        XCTAssertEqual(stats.vectors, stats.passages)
        let search = try runLectern(["search", "Gutenberg movable type", "--json", "-k", "1"], in: folder.url, environment: environment)
        XCTAssertEqual(search.status, 0, search.stderr)
        let hits = try JSONDecoder().decode([SearchHit].self, from: Data(search.stdout.utf8))
        XCTAssertEqual(hits.first?.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "printing-press.txt")
    }
}
