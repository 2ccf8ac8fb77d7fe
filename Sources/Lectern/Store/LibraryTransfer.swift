import Foundation

/// What `lectern migrate` reads from one library and writes into another, beside the backend
/// seam's own operations: every vector, cache row and run as stored, and the counts it
/// compares at the end. Both backends provide it (`LibraryStore+Transfer`,
/// `PostgresLibrary+Transfer`).
protocol LibraryTransfer: LibraryBackend {
    /// A reader of the vectors of `embedder` by passage id, made once for a whole copy (a
    /// SQLite library reads its vector blocks into memory once; PostgreSQL asks per call).
    func passageVectors(embedder: EmbedderInfo) throws -> PassageVectors

    /// Every web source's validators.
    func fetchCacheEntries() throws -> [FetchCacheEntry]

    /// Every cached vector of `embedder`, by the hash of its text.
    func allCachedVectors(embedder: EmbedderInfo) throws -> [String: [Float]]

    /// Adds a run as another library recorded it, under its id, with its failures, unless a
    /// run of that id is there already. Returns whether it added it.
    func importRun(_ run: RunRecord) throws -> Bool

    /// What a copy compares: rows of runs' failures and of the two caches.
    func transferCounts() throws -> [String: Int]
}

/// Vectors by passage id; nil for a passage without one.
struct PassageVectors {
    var lookup: ([Int64]) throws -> [[Float]?]
}
