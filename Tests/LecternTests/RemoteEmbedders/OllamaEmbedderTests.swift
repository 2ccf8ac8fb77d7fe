import XCTest
@testable import Lectern

/// Ollama's `/api/embed`, against the loopback test server replaying the request and response
/// examples of Ollama's published API reference, "Generate Embeddings"
/// (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings): the model
/// `all-minilm`, the inputs "Why is the sky blue?" and "Why is the grass green?", and the
/// (shortened, 10-number) vectors printed there.
final class OllamaEmbedderTests: XCTestCase {
    static let sky: [Double] = [0.010071029, -0.0017594862, 0.05007221, 0.04692972, 0.054916814,
                                0.008599704, 0.105441414, -0.025878139, 0.12958129, 0.031952348]
    static let grass: [Double] = [-0.0098027075, 0.06042469, 0.025257962, -0.006364387, 0.07272725,
                                  0.017194884, 0.09032035, -0.051705178, 0.09951512, 0.09072481]

    /// The two documented exchanges, verbatim.
    static var replay: [[String: Any]] { [
        ["request": ["method": "POST", "path": "/api/embed",
                     "json": ["model": "all-minilm", "input": "Why is the sky blue?"]],
         "response": ["json": ["model": "all-minilm", "embeddings": [sky], "total_duration": 14143917,
                               "load_duration": 1019500, "prompt_eval_count": 8]]],
        ["request": ["method": "POST", "path": "/api/embed",
                     "json": ["model": "all-minilm", "input": ["Why is the sky blue?", "Why is the grass green?"]]],
         "response": ["json": ["model": "all-minilm", "embeddings": [sky, grass]]]],
    ] }

    func normalised(_ values: [Double]) -> [Float] {
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return values.map { Float($0 / norm) }
    }

    func testEmbedsOneAndManyTextsAsTheAPIReferenceShows() throws {
        let server = try TestServer(routes: [:], replay: Self.replay)
        defer { server.stop() }
        var configuration = Configuration()
        configuration.embedding.url = server.baseURL
        // Known dimensions: no probe request, only the two documented ones.
        configuration.embedding.dimensions = 10
        let embedder = try EmbedderCatalog.make("ollama:all-minilm", configuration: configuration)
        XCTAssertEqual(embedder.info, EmbedderInfo(name: "ollama:all-minilm", model: "all-minilm", dimension: 10, version: 1))

        let one = try embedder.embed(["Why is the sky blue?"])
        XCTAssertEqual(one.count, 1)
        for (a, b) in zip(one[0], normalised(Self.sky)) { XCTAssertEqual(a, b, accuracy: 1e-6) }

        let two = try embedder.embed(["Why is the sky blue?", "Why is the grass green?"])
        XCTAssertEqual(two.count, 2)
        for (a, b) in zip(two[1], normalised(Self.grass)) { XCTAssertEqual(a, b, accuracy: 1e-6) }
        XCTAssertEqual(two[1].reduce(0) { $0 + $1 * $1 }, 1, accuracy: 1e-5)

        let requests = try server.requests()
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.first?["path"] as? String, "/api/embed")
        XCTAssertEqual((requests.first?["headers"] as? [String: String])?["content-type"], "application/json")
    }

    func testFindsTheDimensionWithOneRequestWhenNotConfigured() throws {
        let server = try TestServer(routes: ["/api/embed": ["json": ["model": "all-minilm", "embeddings": [Self.sky]]]])
        defer { server.stop() }
        var configuration = Configuration()
        configuration.embedding.url = server.baseURL + "/"
        let embedder = try EmbedderCatalog.make("ollama:all-minilm", configuration: configuration)
        XCTAssertEqual(embedder.info.dimension, 10)
        XCTAssertEqual(try server.requests().count, 1)
    }

    func testServerErrorsAndWrongShapesAreOneClearLine() throws {
        let server = try TestServer(routes: [:], replay: [
            ["request": ["path": "/api/embed", "json": ["model": "missing-model"]],
             "response": ["status": 404, "json": ["error": "model \"missing-model\" not found, try pulling it first"]]],
            ["request": ["path": "/api/embed", "json": ["model": "all-minilm", "input": "Why is the sky blue?"]],
             "response": ["json": ["model": "all-minilm", "embeddings": [Array(Self.sky.prefix(5))]]]],
        ])
        defer { server.stop() }
        var configuration = Configuration()
        configuration.embedding.url = server.baseURL
        configuration.embedding.dimensions = 10
        XCTAssertThrowsError(try EmbedderCatalog.make("ollama:missing-model", configuration: configuration).embed(["Why is the sky blue?"])) { error in
            XCTAssertEqual((error as? LecternError)?.description,
                           "\(server.baseURL)/api/embed: HTTP 404 Not Found: model \"missing-model\" not found, try pulling it first")
        }
        XCTAssertThrowsError(try EmbedderCatalog.make("ollama:all-minilm", configuration: configuration).embed(["Why is the sky blue?"])) { error in
            XCTAssertEqual((error as? LecternError)?.code, .embedderMismatch)
            XCTAssertTrue("\(error)".contains("5-dimensional vectors, expected 10"), "\(error)")
        }
    }
}
