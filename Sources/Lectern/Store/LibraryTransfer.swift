import Foundation

/// What `lectern migrate` reads from one library and writes into another, beside the backend
/// seam's own operations: every vector, cache row, run, model answer and call, card report
/// and run output as stored, and the counts it compares at the end. Both backends provide it (`LibraryStore+Transfer`,
/// `PostgresLibrary+Transfer`).
protocol LibraryTransfer: LibraryBackend {
    /// A reader of the vectors of `embedder` by passage id, made once for a whole copy and
    /// called a document at a time: it holds a few blocks of vectors, never the library's.
    func passageVectors(embedder: EmbedderInfo) throws -> PassageVectors

    /// Called before the documents are copied into this library, and after the last one when
    /// the copy was not stopped: a library whose server indexes the vectors (PostgreSQL's HNSW)
    /// builds the index once after a copy into it while it was empty.
    func beginCopy() throws
    func finishCopy() throws

    /// Every web source's validators.
    func fetchCacheEntries() throws -> [FetchCacheEntry]

    /// Every cached vector of `embedder`, by the hash of its text.
    func allCachedVectors(embedder: EmbedderInfo) throws -> [String: [Float]]

    /// Adds a run as another library recorded it, under its id, with its failures, unless a
    /// run of that id is there already. Returns whether it added it.
    func importRun(_ run: RunRecord) throws -> Bool

    /// What a copy compares: rows of runs' failures, of the two caches, and of the curriculum
    /// wing's tables and the files runs wrote (`LibraryTransferCounts.names`).
    func transferCounts() throws -> [String: Int]

    // MARK: The curriculum wing's rows the seam reads only in part

    /// Every generate report (the seam reads each curriculum's newest).
    func cardReportRecords() throws -> [CardReportRecord]
    /// Every answer of the model's cache.
    func modelCacheRecords() throws -> [ModelCacheRecord]
    /// Every model call, oldest first, with its id.
    func modelCallRecords() throws -> [ModelCallRecord]
    /// Every file runs wrote, oldest first, with its id.
    func runOutputRecords() throws -> [RunOutputRecord]
    func cardBasisRecords() throws -> [CardBasisRecord]

    /// Replaces the cards of curriculum `name` with `cards` as another library numbered them
    /// (their ordinals kept), in one transaction.
    func importCards(_ cards: [CardRecord], curriculum name: String) throws
    /// Rows another library holds, added unless a row of the same key (a report's run, a
    /// cached answer's key, a call's or an output's id, a curriculum's basis) is there;
    /// returns how many were added. Calls and outputs keep their ids (the runs they belong
    /// to were copied under theirs).
    func importCardReports(_ reports: [CardReportRecord]) throws -> Int
    func importModelCache(_ answers: [ModelCacheRecord]) throws -> Int
    func importModelCalls(_ calls: [ModelCallRecord]) throws -> Int
    func importRunOutputs(_ outputs: [RunOutputRecord]) throws -> Int
    func importCardBases(_ bases: [CardBasisRecord]) throws -> Int
}

/// The rows `lectern migrate` counts beside the seam's statistics, as `transferCounts` names
/// them, in the order it prints them: each a `from` clause both backends read alike (a topic's
/// passages removed since its build are not copied, so not counted).
enum LibraryTransferCounts {
    static let tables: [(name: String, from: String)] = [
        ("run failures", "run_failures"), ("web validators", "fetch_cache"), ("cached vectors", "embedding_cache"),
        ("curricula", "curricula"), ("units", "curriculum_units"), ("topics", "topics"), ("objectives", "topic_objectives"),
        ("key terms", "topic_key_terms"), ("topic passages", "topic_passages t where exists (select 1 from passages p where p.id = t.passage_id)"), ("topic links", "topic_links"),
        ("cards", "cards"), ("card reports", "card_reports"), ("summaries", "summaries"), ("model answers", "llm_cache"),
        ("model calls", "llm_calls"), ("run outputs", "run_outputs"), ("card bases", "card_bases"),
    ]

    static var names: [String] { tables.map(\.name) }
}

/// Vectors by passage id; nil for a passage without one.
struct PassageVectors {
    var lookup: ([Int64]) throws -> [[Float]?]
}
