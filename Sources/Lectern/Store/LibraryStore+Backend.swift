import Foundation
import GRDB

/// The SQLite library behind the backend seam: its own operations, unchanged.
extension LibraryStore: LibraryBackend {
    func keywordMatches(_ query: SearchQuery, limit: Int) throws -> [(id: Int64, score: Double)] {
        try keywordMatches(query, limit: limit, documents: nil, passages: nil)
    }

    /// The exact float32 scan (the search session's compact int8 scan re-ranks to these scores).
    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo) throws -> [(id: Int64, score: Float)] {
        try vectorIndex(for: embedder).nearest(to: vector, k: k)
    }

    /// The passages the filters and the query's phrases and exclusions allow, as a bitmap,
    /// scanned in this process by the searcher's `scan` (compact int8 codes and its cache).
    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo, documents: Set<Int64>?, passages: Set<Int64>?,
                         allowedBy query: SearchQuery, scan: VectorScan) throws -> [(id: Int64, score: Float)] {
        var allowed = try passageBitmap(documents: documents, allowedBy: query)
        if let passages {
            let only = IdBitmap(passages)
            allowed = allowed.map { $0.intersection(only) } ?? only
        }
        return try scan.run(self, allowed)
    }

    /// Nothing to do: `keyword_postings` is a WITHOUT ROWID table, kept in term order as it is written.
    func orderKeywordPostings() throws -> Bool { false }

    /// None: the keyword match and the vector scan both run in this process, one after the other.
    func concurrentReader() -> ConcurrentReader? { nil }

    func passageLocators(_ ids: [Int64]) throws -> [Int64: PassageLocator] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var found: [Int64: PassageLocator] = [:]
            let rows = try Row.fetchCursor(db, SQLRequest<Row>(literal: """
                SELECT p.id, d.uri, p.ordinal FROM passages p JOIN documents d ON d.id = p.document_id
                WHERE p.id IN \(Self.idSet(ids))
                """))
            while let row = try rows.next() { found[row[0]] = PassageLocator(documentURI: row[1], ordinal: row[2]) }
            return found
        }
    }

    func withWriterLock<T>(wait: Bool, cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void,
                           _ body: (RunLock.Holder?) throws -> T) throws -> T {
        let lock = try RunLock.acquire(library: path, wait: wait, cancellation: cancellation, waiting: waiting)
        defer { lock.release() }
        return try body(lock.previous)
    }

    func waitWhileWriterLocked(cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void) throws {
        try RunLock.waitWhileHeld(library: path, cancellation: cancellation, waiting: waiting)
    }
}
