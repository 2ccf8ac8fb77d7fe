import Foundation
import XCTest
@testable import Lectern

/// A long document whose ingest is interrupted keeps its embedding work: the document itself is
/// all or nothing (one transaction), the vectors made before the stop are reused by the next run.
/// The real MiniLM embedder on a generated document of 160 short passages (five batches of 32),
/// so the stop lands between real embedding batches in a few seconds of work, in every clone.
final class ResumableIngestTests: XCTestCase {
    static let sections = 160

    /// 160 top-level sections of two English sentences each (a passage never crosses a top-level
    /// section, so each is one passage), every one different, from a fixed table: the same bytes
    /// on every run.
    static func longDocument(in folder: TemporaryFolder) throws -> URL {
        let subjects = ["The river", "A young student", "The old library", "Every healthy cell", "The city council", "A careful reader",
                        "The small engine", "Our science teacher", "The morning train", "A quiet village", "The winter storm", "The museum guide"]
        let verbs = ["explains", "changes", "protects", "measures", "describes", "follows", "supports", "carries"]
        let objects = ["the history of the valley", "the energy stored in sugar", "the price of bread", "the path of the planets",
                       "the rules of the game", "the names of the stars", "the water in the soil", "the letters from the war",
                       "the growth of the forest", "the songs of the harbour"]
        var markdown = ""
        for index in 0..<sections {
            let subject = subjects[index % subjects.count], verb = verbs[(index / 3) % verbs.count]
            let object = objects[(index * 7) % objects.count]
            markdown += "# Chapter \(index + 1): \(subject.dropFirst(subject.hasPrefix("The ") ? 4 : 2).capitalized)\n\n"
            markdown += "\(subject) \(verb) \(object) in lesson \(index + 1), and the class writes down what it learns. "
            markdown += "By the end of week \(index / 5 + 1) everyone can say why \(object) matters to the people who live here.\n\n"
        }
        return try folder.write("long-read.md", markdown)
    }

    func testAnInterruptedLongIngestReembedsLessThanATenthOnTheRerun() throws {
        try TestPaths.requireLecternBinary()
        let models = (try MiniLMFixtures.modelDirectory() as NSString).deletingLastPathComponent
        let environment = ["LECTERN_EMBEDDER": "", "LECTERN_MODELS": models]
        let folder = try TemporaryFolder()
        let document = try Self.longDocument(in: folder)

        // Ctrl-C once about a third of the passages are embedded.
        let first = try RunningLectern(["ingest", "--events", "json", "--json", document.lastPathComponent], in: folder.url, environment: environment)
        let underWay = first.waitForStderr(timeout: 600) { line in
            guard let event = try? JSONDecoder().decode(PipelineEvent.self, from: Data(line.utf8)),
                  event.event == .progress, let index = event.index, let total = event.total else { return false }
            return index * 3 >= total
        }
        XCTAssertTrue(underWay, "no embedding progress: \(first.finish().stderr.suffix(2000))")
        first.send(SIGINT)
        let stopped = first.finish(timeout: 120)
        XCTAssertEqual(stopped.status, 130, stopped.stderr.suffix(2000).description)
        let progress = try XCTUnwrap(first.events.last { $0.event == .progress && $0.counts?["embedded"] != nil })
        let passages = try XCTUnwrap(progress.total)
        let embeddedBefore = try XCTUnwrap(progress.counts?["embedded"])
        let interrupted = try JSONDecoder().decode(IngestSummary.self, from: Data(stopped.stdout.utf8))
        XCTAssertEqual(interrupted.stopped, .interrupted)
        XCTAssertEqual(interrupted.stored, 0)
        XCTAssertEqual(interrupted.embedded, embeddedBefore, "the summary counts the work of the abandoned document")
        XCTAssertEqual(passages, Self.sections, "one passage a section")
        XCTAssertGreaterThan(embeddedBefore, 0)
        XCTAssertLessThan(embeddedBefore, passages, "stopped before the end")

        // No half document: nothing of it is searchable, the library holds no passage of it.
        let library = folder.file("lectern.db").path
        let store = try LibraryStore(path: library, access: .read)
        XCTAssertEqual(try store.allDocuments().count, 0)
        XCTAssertEqual(try store.stats().passages, 0)
        XCTAssertEqual(try store.cachedVectorCount(), embeddedBefore, "the embedding work done is kept")

        // The re-run embeds what is missing and little else.
        let rerun = try runLectern(["ingest", "--json", document.lastPathComponent], in: folder.url, environment: environment)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let summary = try JSONDecoder().decode(IngestSummary.self, from: Data(rerun.stdout.utf8))
        XCTAssertEqual(summary.stored, 1)
        XCTAssertEqual(summary.passages, passages)
        XCTAssertEqual(summary.cacheHits, embeddedBefore, "every vector made before the stop is reused")
        XCTAssertEqual(summary.cacheMisses, passages - embeddedBefore)
        let embeddedAgain = summary.embedded - (passages - embeddedBefore)
        XCTAssertLessThan(embeddedAgain * 10, passages, "re-embedded \(embeddedAgain) of \(passages) passages")
        print("resumable ingest: \(passages) passages; \(embeddedBefore) embedded before SIGINT; re-run embedded \(summary.embedded), reused \(summary.cacheHits)")

        // Stored, the document holds every vector, and the cache is empty again.
        let stored = try LibraryStore(path: library, access: .read)
        XCTAssertEqual(try stored.stats().vectors, passages)
        XCTAssertEqual(try stored.cachedVectorCount(), 0)
        let search = try runLectern(["search", "--json", "-k", "3", "lesson 97"], in: folder.url, environment: environment)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("in lesson 97,"), search.stdout.prefix(500).description)
    }

    func testTheCacheIsKeyedByEmbedderAndEmptiedByPrune() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        let hashing = HashingEmbedder()
        let texts = ["The unexamined life is not worth living.", "Knowledge is justified true belief."]
        let hashes = texts.map(ContentHash.sha256)
        try store.cacheVectors(embedder: hashing.info, textHashes: hashes, vectors: try hashing.embed(texts))
        XCTAssertEqual(try store.cachedVectors(embedder: hashing.info, textHashes: hashes).count, 2)
        // Another embedder (as after `reembed`), or another dimension of the same one, finds nothing.
        let other = EmbedderInfo(name: hashing.info.name, model: hashing.info.model, dimension: hashing.info.dimension * 2, version: hashing.info.version)
        XCTAssertEqual(try store.cachedVectors(embedder: other, textHashes: hashes).count, 0)
        let result = try LibraryRemoval(store: store).prune(dryRun: false, recorder: nil)
        XCTAssertEqual(result.cachedVectors, 2)
        XCTAssertEqual(try store.cachedVectorCount(), 0)
    }
}
