import XCTest
@testable import Lectern

/// Lectern's MiniLM against sentence-transformers' own vectors for the same real passages
/// (Tests/Fixtures/minilm/reference.json, written by bench/minilm_reference.py).
final class MiniLMParityTests: XCTestCase {
    func testVectorsMatchSentenceTransformersOnRealPassages() throws {
        let embedder = try MiniLMFixtures.embedder()
        let fixture = try MiniLMFixtures.reference()
        XCTAssertGreaterThanOrEqual(fixture.passages.count, 200)
        let vectors = try embedder.embed(fixture.passages.map(\.text))
        var worst = (cosine: Float(2), index: -1)
        var total: Double = 0
        for (index, (vector, item)) in zip(vectors, fixture.passages).enumerated() {
            let expected = item.values
            XCTAssertEqual(vector.count, 384)
            XCTAssertEqual(expected.count, 384)
            let cosine = zip(vector, expected).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            total += Double(cosine)
            if cosine < worst.cosine { worst = (cosine, index) }
        }
        let mean = total / Double(fixture.passages.count)
        print("MiniLM parity with sentence-transformers \(fixture.sentence_transformers): \(fixture.passages.count) passages, worst cosine \(worst.cosine) (\(fixture.passages[worst.index].source)), mean \(mean)")
        XCTAssertGreaterThanOrEqual(worst.cosine, 0.999, "passage \(worst.index): \(fixture.passages[worst.index].text.prefix(120))")
        XCTAssertGreaterThanOrEqual(mean, 0.9999)
    }

    /// The same text gives the same vector alone or in a batch of others (no padding leaks).
    func testBatchingDoesNotChangeVectors() throws {
        let embedder = try MiniLMFixtures.embedder()
        let texts = try MiniLMFixtures.reference().passages.prefix(24).map(\.text)
        let batched = try embedder.embed(texts)
        for (text, vector) in zip(texts, batched).prefix(4) {
            let alone = try embedder.embed(text)
            let cosine = zip(alone, vector).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            XCTAssertGreaterThan(cosine, 0.99999)
        }
    }

    /// What a user sees: a question finds the passage that answers it in other words.
    func testParaphraseIsNearerThanUnrelatedText() throws {
        let embedder = try MiniLMFixtures.embedder()
        let vectors = try embedder.embed([
            "How do plants turn sunlight into chemical energy?",
            "Photosynthesis converts light energy into glucose in the chloroplasts of leaves.",
            "The treaty ended the war between the two kingdoms in 1648.",
        ])
        let related = zip(vectors[0], vectors[1]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        let unrelated = zip(vectors[0], vectors[2]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        XCTAssertGreaterThan(related, unrelated + 0.3)
        for vector in vectors {
            XCTAssertEqual(vector.reduce(0) { $0 + $1 * $1 }, 1, accuracy: 1e-4)
        }
    }

    func testMissingModelIsAnErrorNamingMakeModel() throws {
        let folder = try TemporaryFolder()
        var configuration = Configuration()
        configuration.modelsDirectory = folder.path
        XCTAssertThrowsError(try EmbedderCatalog.make("minilm", configuration: configuration)) { error in
            let lectern = error as? LecternError
            XCTAssertEqual(lectern?.code, .modelMissing)
            XCTAssertTrue(lectern?.reason.contains("make model") ?? false, "\(error)")
        }
    }
}
