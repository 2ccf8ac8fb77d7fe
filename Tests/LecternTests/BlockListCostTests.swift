import CSQLite
import Foundation
import XCTest
@testable import Lectern

/// `lectern stats` and the start of every vector scan list the library's vector blocks (their
/// counts). A block row holds its blobs, so listing them through the table read a page per block,
/// scattered through the file: 4,000 pages at a million vectors, the whole of what made `stats`
/// slower there. They read covering indexes now: the pages read stay nearly the same however
/// many blocks there are. Counted in pages SQLite reads into its cache, not timed.
final class BlockListCostTests: XCTestCase {
    func testStatsReadsAboutAsManyPagesForFortyVectorBlocksAsForTwo() throws {
        let small = try pagesRead(vectors: 300)
        let large = try pagesRead(vectors: 40 * VectorBlocks.capacity)
        XCTAssertEqual(large.stats.vectors, 40 * VectorBlocks.capacity)
        XCTAssertEqual(large.stats.vectorBlocks, 40)
        XCTAssertEqual(small.stats.vectorBlocks, 2)
        // Through the table: a page more per few blocks (each row keeps up to a page of its blobs).
        XCTAssertLessThanOrEqual(large.pages, small.pages + 2, "stats read a page per vector block (\(small.pages) pages for 2 blocks, \(large.pages) for 40)")
    }

    /// Pages `stats()` reads from the file on a library just opened (nothing cached) that holds
    /// `count` vectors.
    private func pagesRead(vectors count: Int) throws -> (stats: LibraryStats, pages: Int) {
        let folder = try TemporaryFolder()
        let info = EmbedderInfo(name: "test", model: "test", dimension: 384, version: 1)
        let vectors: [[Float]] = (0..<count).map { row in
            (0..<384).map { (column: Int) -> Float in Float((column * 31 + row * 17) % 13) - 6 }
        }
        do { _ = try CompactVectorTests.library(folder, vectors, info: info) }
        let store = try LibraryStore(path: folder.file("vectors.db").path, access: .read)
        let before = try misses(store)
        let stats = try store.stats()
        return (stats, try misses(store) - before)
    }

    private func misses(_ store: LibraryStore) throws -> Int {
        try store.read { db in
            var current: Int32 = 0
            var highest: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0)
            return Int(current)
        }
    }
}
