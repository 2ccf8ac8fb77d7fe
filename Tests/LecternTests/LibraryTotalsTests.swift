import Foundation
import GRDB
import XCTest
@testable import Lectern

/// `lectern stats` reads totals the library keeps as it is written, never its passages: as
/// quick at a million passages as at ten, and always equal to what the tables hold.
final class LibraryTotalsTests: CommandTestCase {
    func counted(_ store: LibraryStore) throws -> (passages: Int, blocks: Int, tokens: Int) {
        try store.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passages") ?? 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blocks") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(token_count), 0) FROM passages") ?? 0)
        }
    }

    func note(sections: Int) -> String {
        (1...sections).map { "## Part \($0)\n\nThe river of part \($0) floods each spring and leaves silt on the fields around it, which farmers plough in.\n" }
            .joined(separator: "\n")
    }

    func testStatsAgreeWithTheTablesThroughIngestChangeAndRemoval() throws {
        try folder.write("notes/a.md", "# A\n\n" + note(sections: 3))
        try folder.write("notes/b.md", "# B\n\n" + note(sections: 40))
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        func check(_ step: String) throws {
            let store = try LibraryStore(path: folder.file("lectern.db").path, access: .read)
            let stats = try store.stats()
            let truth = try counted(store)
            XCTAssertEqual(stats.passages, truth.passages, step)
            XCTAssertEqual(stats.blocks, truth.blocks, step)
            XCTAssertEqual(stats.tokens, truth.tokens, step)
            XCTAssertGreaterThan(truth.passages, 0, step)
        }
        try check("ingest")
        try folder.write("notes/b.md", "# B\n\n" + note(sections: 7))
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        try check("changed and ingested again")
        XCTAssertEqual(try runLectern(["rm", "notes/a.md"], in: folder.url).status, 0)
        try check("removed")
        let json = try runLectern(["stats", "--json"], in: folder.url)
        XCTAssertTrue(json.stdout.contains("\"passages\""), json.stdout)
    }

    func testStatsReadNoPassageWhateverTheLibrarysSize() throws {
        func steps(_ sections: Int) throws -> Int {
            try folder.write("size\(sections)/note.md", "# Rivers\n\n" + note(sections: sections))
            XCTAssertEqual(try runLectern(["ingest", "size\(sections)/note.md", "--db", "size\(sections).db"], in: folder.url).status, 0)
            let store = try LibraryStore(path: folder.file("size\(sections).db").path, access: .read)
            _ = try store.stats()
            return try store.countingSteps { try store.stats() }.steps
        }
        let small = try steps(10)
        let large = try steps(1000)
        XCTAssertLessThanOrEqual(large, small + small / 10, "stats of 1,000 sections took \(large) steps, of 10: \(small)")
    }

    /// The vectors `stats` counts are summed from an index: reading each vector block's row
    /// read a page per 256 vectors, scattered through the file between the vectors themselves
    /// (4,000 pages and up to 91 ms at a million passages, most of a `stats` call).
    func testStatsCountVectorsWithoutReadingAVectorBlock() throws {
        try folder.write("notes/a.md", "# A\n\n" + note(sections: 3))
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        let store = try LibraryStore(path: folder.file("lectern.db").path, access: .read)
        let plan = try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + LibraryStore.vectorTotalSQL).map { $0["detail"] as String }
        }
        XCTAssertEqual(plan, ["SCAN vector_blocks USING COVERING INDEX vector_blocks_counts"])
        XCTAssertEqual(try store.stats().vectors, try counted(store).passages)
    }
}
