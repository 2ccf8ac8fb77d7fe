import Foundation
import XCTest
@testable import Lectern

/// The compact (int8) vectors a search scans: written beside the float32 blocks by the store's
/// own write path, built for older libraries by their migration, and ranking as the exact
/// float32 scan does (recall@10 ≥ 0.99 on random vectors and on real MiniLM vectors).
final class CompactVectorTests: XCTestCase {
    /// A seeded generator: the same vectors on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func unitGaussian(_ dimension: Int, _ random: inout SplitMix) -> [Float] {
        var values = (0..<dimension).map { _ -> Float in
            let u = Float.random(in: Float.ulpOfOne..<1, using: &random)
            let v = Float.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        for i in values.indices { values[i] /= norm }
        return values
    }

    /// The exact top-k ids (the reference the compact scan must match): dot products summed in
    /// Double by plain Swift, so the reference shares no code with the scan's C kernels.
    static func exactTop(_ query: [Float], _ vectors: [[Float]], ids: [Int64], k: Int) -> [Int64] {
        // A plain loop over raw buffers: closures per element are too slow in a debug build
        // (8,000 × 40 × 384 products took 177 s through zip and reduce).
        let scores = vectors.map { vector in
            vector.withUnsafeBufferPointer { v in
                query.withUnsafeBufferPointer { q in
                    var sum = 0.0
                    for i in 0..<q.count { sum += Double(v[i]) * Double(q[i]) }
                    return sum
                }
            }
        }
        return scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : ids[$0] < ids[$1] }.prefix(k).map { ids[$0] }
    }

    static func makeDocument(_ store: LibraryStore, uri: String, passages count: Int, embedder: any Embedder) throws {
        let passages = (0..<count).map { Passage(ordinal: $0, text: "Passage \($0) of \(uri) about topic \($0 % 17).", kind: .text, sectionPath: ["S"], tokenCount: 8) }
        try store.replaceDocument(LibraryStore.DocumentWrite(
            sourceURI: uri, sourceKind: .file, uri: uri, path: nil, extractor: "text", extractorVersion: 1,
            contentHash: uri, skipKey: SkipKey(passages: uri, embedder: embedder.info.key), document: ExtractedDocument(type: "text", title: uri, blocks: []),
            passages: passages, vectors: try embedder.embed(passages.map(\.text)), embedder: embedder.info))
    }

    /// Stores `vectors` (ids 1…n) as the hashing embedder's, through the store's write path.
    static func library(_ folder: TemporaryFolder, _ vectors: [[Float]], info: EmbedderInfo) throws -> LibraryStore {
        let store = try LibraryStore(path: folder.file("vectors.db").path)
        try store.write { db in
            try VectorBlocks.append(db, ids: (1...Int64(vectors.count)).map { $0 }, vectors: vectors, embedder: info)
        }
        return store
    }

    func recall(_ searcher: Searcher, _ queries: [[Float]], _ vectors: [[Float]], info: EmbedderInfo, k: Int = 10) throws -> Double {
        let ids = (1...Int64(vectors.count)).map { $0 }
        var found = 0
        for query in queries {
            let exact = Set(Self.exactTop(query, vectors, ids: ids, k: k))
            let compact = try searcher.nearest(to: query, k: k, embedder: info).map(\.id)
            XCTAssertEqual(compact.count, k)
            found += compact.filter(exact.contains).count
        }
        return Double(found) / Double(k * queries.count)
    }

    func testRecallAtTenOnRandomVectors() throws {
        var random = SplitMix(state: 20)
        let info = HashingEmbedder().info
        // Random directions in 384 dimensions are nearly orthogonal: their cosines bunch up
        // near 0, the hardest case for a quantised scan.
        let vectors = (0..<8_000).map { _ in Self.unitGaussian(info.dimension, &random) }
        let queries = (0..<40).map { _ in Self.unitGaussian(info.dimension, &random) }
        let folder = try TemporaryFolder()
        let store = try Self.library(folder, vectors, info: info)
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        guard case .compact(let compact) = try searcher.vectorCache.vectors(store: store, embedder: info) else {
            return XCTFail("the store wrote no compact blocks")
        }
        XCTAssertEqual(compact.count, 8_000)
        let recall = try recall(searcher, queries, vectors, info: info)
        XCTAssertGreaterThanOrEqual(recall, 0.99, "recall@10 of the compact scan against the exact float32 scan")
    }

    /// all-MiniLM-L6-v2 vectors of shared-corpus passages (sentence-transformers' own, from the
    /// parity fixture): each passage asks for its ten nearest, and only 20 of the scan's best
    /// are re-ranked, so the int8 codes alone must put the true ten among them.
    func testRecallAtTenOnRealMiniLMVectors() throws {
        let vectors = try MiniLMFixtures.reference().passages.map(\.values)
        XCTAssertGreaterThan(vectors.count, 200)
        let info = EmbedderInfo(name: MiniLMEmbedder.name, model: MiniLMEmbedder.model, dimension: 384, version: 1)
        let folder = try TemporaryFolder()
        let store = try Self.library(folder, vectors, info: info)
        var searcher = Searcher(store: store, embedder: HashingEmbedder(dimension: 384))
        searcher.rerankDepth = { _ in 20 }
        let recall = try recall(searcher, vectors, vectors, info: info)
        XCTAssertGreaterThanOrEqual(recall, 0.99, "recall@10 on real MiniLM vectors")
    }

    /// The compact blocks follow every write: appends that fill the open block, documents
    /// removed, an embedder switch; and a filter reaches inside the scan.
    func testCompactBlocksFollowWritesAndFiltersReachTheScan() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("w.db").path)
        let embedder = HashingEmbedder()
        try Self.makeDocument(store, uri: "doc:a", passages: 300, embedder: embedder)
        try Self.makeDocument(store, uri: "doc:b", passages: 300, embedder: embedder)
        let searcher = Searcher(store: store, embedder: embedder)
        func compactCount() throws -> Int? {
            guard case .compact(let compact) = try searcher.vectorCache.vectors(store: store, embedder: embedder.info) else { return nil }
            return compact.count
        }
        XCTAssertEqual(try compactCount(), 600)
        var hit = try searcher.search("Passage 7 of doc:b about topic 7", k: 1, mode: .semantic).first
        XCTAssertEqual(hit?.text, "Passage 7 of doc:b about topic 7.")

        // Only doc:a's passages pass the filter: the scan leaves doc:b's out.
        let onlyA = try searcher.search("Passage 7 of doc:b about topic 7", k: 5, mode: .semantic, filter: SearchFilter(sources: ["doc:a"]))
        XCTAssertEqual(onlyA.count, 5)
        XCTAssertTrue(onlyA.allSatisfy { $0.text.contains("of doc:a") }, onlyA.map(\.text).joined(separator: " | "))

        // Removing a document takes its compact rows; the warm searcher sees it.
        try store.removeDocuments(store.documents(matching: "doc:b"))
        XCTAssertEqual(try compactCount(), 300)
        hit = try searcher.search("Passage 7 of doc:b about topic 7", k: 1, mode: .semantic).first
        XCTAssertEqual(hit?.text.contains("doc:a"), true)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    /// A library made before compact vectors existed gets them from its upgrade.
    func testTheMigrationBuildsCompactBlocksForAnOldLibrary() throws {
        let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/library-v1/lectern.sqlite")
        let folder = try TemporaryFolder()
        let copy = folder.file("old.sqlite")
        try FileManager.default.copyItem(at: fixture, to: copy)
        let store = try LibraryStore(path: copy.path, access: .write)
        let info = try XCTUnwrap(try store.recordedEmbedder())
        let vectors = try store.stats().vectors
        XCTAssertGreaterThan(vectors, 0)
        let compact = try XCTUnwrap(try store.compactVectors(embedder: info), "the upgrade built no compact blocks")
        XCTAssertEqual(compact.count, vectors)
        // Every compact row decodes to its float32 row, within half a quantisation step.
        let index = try store.vectorIndex(for: info)
        for row in 0..<compact.count {
            XCTAssertEqual(compact.ids[row], index.ids[row])
            for j in 0..<info.dimension {
                let decoded = Float(compact.codes[row * info.dimension + j]) * compact.scales[row]
                XCTAssertEqual(decoded, index.vectors[row * info.dimension + j], accuracy: compact.scales[row] / 2 + 1e-6)
            }
        }
    }

    func testBitmapHoldsExactlyItsIds() {
        var bitmap = IdBitmap([1, 64, 200])
        bitmap.insert(5000)
        XCTAssertTrue([1, 64, 200, 5000].allSatisfy(bitmap.contains))
        XCTAssertFalse([0, 2, 63, 65, 4999, 100_000, -1].contains(where: bitmap.contains))
        let both = bitmap.intersection(IdBitmap([64, 5000, 7]))
        XCTAssertTrue(both.contains(64) && both.contains(5000))
        XCTAssertFalse(both.contains(1) || both.contains(7) || both.contains(200))
    }
}
