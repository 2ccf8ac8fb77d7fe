import Foundation
import GRDB
import XCTest
@testable import Lectern

/// A `curriculum build` over a 100,000-passage library spent a quarter of its 410 s of CPU
/// copying vector blocks out of SQLite: each of its 870 documents asked for its own passages'
/// vectors, and each ask read every block's id list and every block holding one of them (393 KB
/// of floats, shared by neighbouring documents). The blocks are now read once per build,
/// however many documents it has: counted in passes over `vector_blocks`, not timed.
final class CurriculumVectorReadsTests: XCTestCase {
    /// A generated course note: two sections of a few paragraphs on `subject`.
    func note(_ index: Int, _ subject: String) -> String {
        let sentences = [
            "The \(subject) of part \(index) changes when the river floods and leaves silt on the fields.",
            "Farmers study the \(subject) each spring and sow barley where the water went down.",
            "A mill by the ford grinds the barley, and the \(subject) decides how much flour it makes.",
        ]
        var text = "# Notes on \(subject) \(index)\n\n"
        for section in ["Origins", "Uses"] {
            text += "## \(section) of \(subject)\n\n"
            for paragraph in 0..<3 {
                text += sentences.map { $0 + " Paragraph \(paragraph) of \(section.lowercased()) says so." }.joined(separator: " ") + "\n\n"
            }
        }
        return text
    }

    /// How many statements that run while `body` does read the passages' vector blocks.
    func passesOverVectorBlocks(_ store: LibraryStore, _ body: () throws -> Void) throws -> Int {
        let passes = Locked(0)
        try store.writer.inDatabase { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event, statement.sql.contains("FROM vector_blocks") {
                    passes.withLock { $0 += 1 }
                }
            }
        }
        defer { try? store.writer.inDatabase { db in db.trace(options: .statement, nil) } }
        try body()
        return passes.current
    }

    func testABuildReadsTheVectorBlocksOnceHoweverManyDocumentsItHas() throws {
        let folder = try TemporaryFolder()
        let subjects = ["erosion", "irrigation", "harvest", "drainage", "rotation", "fallow"]
        for (index, subject) in subjects.enumerated() {
            try folder.write("notes/\(subject).md", note(index, subject))
        }
        let store = try LibraryStore(path: folder.file("library.db").path)
        let ingested = Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("notes").path], recorder: nil) { _ in }
        XCTAssertEqual(ingested.failed, 0)

        var result: CurriculumBuildResult?
        let passes = try passesOverVectorBlocks(store) {
            result = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
                .build(name: "fields", sources: [], all: true, recorder: nil) { _ in }
        }
        let built = try XCTUnwrap(result)
        XCTAssertEqual(built.sources, subjects.count)
        XCTAssertGreaterThanOrEqual(built.topics, subjects.count)
        // One pass for every document's outline, one for the topics' vectors when it is saved
        // (it read one more for each document before).
        XCTAssertEqual(passes, 2, "passes over the vector blocks for a build of \(subjects.count) documents")
        // What the passes are for: every topic gets its vector, so `curriculum find` ranks it.
        let topicVectors = try store.topicVectorIndex(for: HashingEmbedder().info)
        XCTAssertEqual(topicVectors.ids.count, built.topics, "every topic has a vector")
    }
}
