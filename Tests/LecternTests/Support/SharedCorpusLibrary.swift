import Foundation
import XCTest
@testable import Lectern

/// The shared corpus's course, notes, lectures and slides (OCW 8.01SC, the GeoTopo PDF, the
/// lecture subtitles, the mtheme slides) ingested once per test process (hashing embedder) into
/// one library, where each curriculum is built once: CurriculumShapeTests and
/// CardFixtureChecksTests build the same "mechanics" and "geotopo" (the 8.01SC course's alone
/// took 27 s on two loaded cores), so .ci/test-seconds puts them in one process.
final class SharedCorpusLibrary: @unchecked Sendable {
    static let sources = ["ocw/8-01sc-classical-mechanics-fall-2016_parsed.json", "pdf/pypdf-GeoTopo-komprimiert.pdf",
                          "transcripts", "pdf/mtheme-demo-slides.pdf"]

    let folder: TemporaryFolder
    let store: LibraryStore
    private let lock = NSLock()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: SharedCorpusLibrary?

    static func load() throws -> SharedCorpusLibrary {
        let corpus = try TestPaths.sharedCorpus()
        return try lock.withLock {
            if let shared { return shared }
            let made = try SharedCorpusLibrary(corpus: corpus)
            shared = made
            return made
        }
    }

    private init(corpus: URL) throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("shared.db").path)
        let paths = Self.sources.map { corpus.appendingPathComponent($0).path }
        let summary = Ingestor(store: store, embedder: HashingEmbedder(), chunkSettings: ChunkSettings()).ingest(paths, recorder: nil) { _ in }
        XCTAssertEqual(summary.failed, 0, "every shared document ingests")
    }

    /// The curriculum `name` built offline from `sources` (paths) as `lectern curriculum build`
    /// builds it; a second call with the same sources finds it unchanged and builds nothing.
    func curriculum(_ name: String, sources: [String]) throws -> Curriculum {
        try lock.withLock {
            _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: name, sources: sources, recorder: nil) { _ in }
            return try XCTUnwrap(try store.curriculum(named: name), name)
        }
    }
}
