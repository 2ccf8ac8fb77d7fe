import Foundation

/// The store operations of the commands that work on either backend (ingest, search, show,
/// sources, stats, rm, prune, reembed, run with its decks and exports, runs, logs), behind which a library is one SQLite file (`LibraryStore`) or a
/// PostgreSQL database (`PostgresLibrary`). The workflows above Store/ reach a library through
/// `Library`, which holds one of these; each operation is tested on both backends
/// (`LibraryBackendTests`, `StoreSuiteTests`, the commands' tests). The curriculum wing
/// (curricula, cards, summaries, the model's answers) reaches it through `CurriculumBackend`,
/// which every one is.
protocol LibraryBackend: AnyObject, Sendable, RunLog, CurriculumBackend {
    /// How messages name the library: a path, or a URL without its password.
    var display: String { get }

    // MARK: Writing

    /// Stores one document with its blocks, passages and their vectors in one transaction,
    /// replacing what the library held under the same URI (and removing from the embedding
    /// cache the vectors it took from there); returns the document's id.
    @discardableResult
    func replaceDocument(_ write: LibraryStore.DocumentWrite) throws -> Int64

    /// Removes documents and, when they were its last, their sources. Returns their URIs.
    @discardableResult
    func removeDocuments(_ documents: [StoredDocument]) throws -> [String]

    /// Names a stored document as its user wants it named (`ingest --title`).
    func setTitle(documentId: Int64, _ title: String) throws

    /// The embedder this library's vectors were made with; nil for a new library.
    func recordedEmbedder() throws -> EmbedderInfo?

    func setSetting(_ key: String, _ value: String?) throws

    /// `reembed`: the passages that have a vector of `embedder` (the recorded one's, or one
    /// written beside them for a switch), those that lack one (with the text an ingest embeds),
    /// vectors written beside the recorded ones, and the switch, in one transaction.
    func passageIdsWithVectors(_ embedder: EmbedderInfo) throws -> Set<Int64>
    func passagesMissingVectors(_ embedder: EmbedderInfo, limit: Int) throws -> [(id: Int64, text: String)]
    func addVectors(ids: [Int64], vectors: [[Float]], embedder: EmbedderInfo) throws
    func switchEmbedder(to embedder: EmbedderInfo) throws

    /// The embedding cache: vectors an ingest made for a document it has not stored yet.
    func cachedVectors(embedder: EmbedderInfo, textHashes: [String]) throws -> [String: [Float]]
    func cacheVectors(embedder: EmbedderInfo, textHashes: [String], vectors: [[Float]]) throws
    @discardableResult
    func clearEmbeddingCache() throws -> Int
    func cachedVectorCount() throws -> Int

    /// A web source's validators (ETag, Last-Modified) for a conditional GET.
    func fetchCache(url: String) throws -> FetchCacheEntry?
    func recordFetch(_ entry: FetchCacheEntry) throws

    // MARK: Reading

    func document(uri: String) throws -> StoredDocument?
    /// Documents a user means by `reference` (see `DocumentReferences`).
    func documents(matching reference: String, absolutePath: String) throws -> [StoredDocument]
    /// Every document, in URI order.
    func allDocuments() throws -> [StoredDocument]
    func sources() throws -> [SourceSummary]
    func stats() throws -> LibraryStats
    func blocks(documentId: Int64) throws -> [Block]
    func passages(documentId: Int64) throws -> [Passage]
    /// Passages by id, in the order of `ids`.
    func passages(ids: [Int64]) throws -> [Passage]
    func passageWithNeighbours(id: Int64, context: Int) throws -> [Passage]
    func speaker(documentId: Int64, at time: Double) throws -> String?
    func sectionFacts(documentId: Int64, sectionPath: [String]) throws -> [[String]: [String: String]]
    func cueAttributes(documentId: Int64, sectionPath: [String]) throws -> [String: String]
    func metadata(documentId: Int64) throws -> [String: String]
    func summaries(documentId: Int64) throws -> [StoredSummary]

    // MARK: Searching

    /// Passages that hold any of the query's words, best BM25 first (higher is better), at most
    /// `limit`: the same ranking on both backends.
    func keywordMatches(_ query: SearchQuery, limit: Int) throws -> [(id: Int64, score: Double)]

    /// `keywordMatches` with every one of the query's phrases and none of its exclusions, only
    /// passages of `documents` and among `passages` when given, the columns weighted by `weights`.
    /// `evaluation` says when a big library may leave a query's commonest words out of the
    /// match (SQLite's FTS5; PostgreSQL ranks in SQL and does not need it).
    func keywordMatches(_ query: SearchQuery, limit: Int, documents: Set<Int64>?, passages: Set<Int64>?,
                        weights: LibraryStore.KeywordWeights, evaluation: KeywordEvaluation) throws -> [(id: Int64, score: Double)]

    /// The `k` passages whose vectors from `embedder` are nearest to `vector` by cosine, best
    /// first, scored in float32 (the exact answer, for comparing backends).
    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo) throws -> [(id: Int64, score: Float)]

    /// What a search ranks by meaning: the `k` passages nearest to `vector` among those of
    /// `documents` and `passages` (all when nil) that hold the query's phrases and none of its
    /// exclusions, scored in float32, best first. A library whose vectors are read into the
    /// process (SQLite) hands the scan to `scan` with the passages it allows (the searcher's
    /// compact int8 scan and its cache); one whose server indexes them answers itself.
    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo, documents: Set<Int64>?, passages: Set<Int64>?,
                         allowedBy query: SearchQuery, scan: VectorScan) throws -> [(id: Int64, score: Float)]

    /// What a library whose vectors a server indexes offers a search beside the index: another
    /// session to rank the query's words in while this one asks the index, and the exact scores
    /// of the passages the words found; nil for a library file, whose search scans every vector
    /// and runs its two halves in this process one after the other.
    func concurrentReader() -> ConcurrentReader?

    /// Puts the keyword postings back in the order a keyword search reads them (term by term)
    /// when the writes since they last were have grown them by a quarter: a run's finishing
    /// stages ask, so a library fed every night keeps its keyword search fast. Returns whether
    /// it did. A library file's postings are always in that order (a WITHOUT ROWID table).
    @discardableResult
    func orderKeywordPostings() throws -> Bool

    /// The token counts of those of `ids` that hold fewer than `tokens` tokens.
    func shortPassages(_ ids: [Int64], under tokens: Int) throws -> [Int64: Int]

    /// Documents of any of these types, in any case.
    func documentIds(types: [String]) throws -> Set<Int64>

    /// Where each of `ids` is: its document's URI and its place in it, the identity a passage
    /// keeps across libraries (row ids differ between backends).
    func passageLocators(_ ids: [Int64]) throws -> [Int64: PassageLocator]

    // MARK: The writer lock

    /// Runs `body` holding the library's writer lock, which `lectern run` and the workers of a
    /// queue take so that one writer at a time does the finishing stages: a lock file beside a
    /// SQLite library, a session-level advisory lock in PostgreSQL (so across machines).
    /// Held by another process: throws `RunLock.Held`, or with `wait` calls `waiting` once and
    /// waits until it is free or `cancellation` stops it. `body` is given the holder a lock
    /// left behind it that is gone (a killed run), if any.
    func withWriterLock<T>(wait: Bool, cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void,
                           _ body: (RunLock.Holder?) throws -> T) throws -> T

    /// Returns once no other process holds the writer lock (a hand-started ingest waits for a
    /// `lectern run`), calling `waiting` once first when one does; stops at `cancellation`.
    func waitWhileWriterLocked(cancellation: Cancellation?, waiting: (RunLock.Holder?) -> Void) throws

    // MARK: Runs

    /// The newest runs first (`id`: that run only); a run marked `running` whose process is
    /// gone is listed as `interrupted`.
    func runs(limit: Int, id: Int64?) throws -> [RunRecord]

    /// The last `limit` model calls (all when nil), newest first; `template` keeps one prompt's.
    func modelCallLog(limit: Int?, template: String?) throws -> [ModelCallLog]

    /// Gives a document the licence and tags a pipeline declares; returns whether it wrote.
    @discardableResult
    func label(documentId: Int64, licence: String?, tags: [String]) throws -> Bool

    // MARK: The files a run writes

    /// Records a file a run wrote (a deck, an export), or found as it would write it; `run`
    /// nil outside a recorded run.
    func recordOutput(run: Int64?, _ output: RunOutput) throws
    /// The newest record of the file at `path`: what it was last made from.
    func latestOutput(path: String) throws -> RunOutput?
    /// The curriculum build key the cards of `curriculum` were last made from.
    func cardsBasis(curriculum: String) throws -> String?
    func setCardsBasis(curriculum: String, buildKey: String) throws
}

extension LibraryBackend {
    /// The writer lock without a wait's notice or a stop.
    func withWriterLock<T>(wait: Bool, _ body: () throws -> T) throws -> T {
        try withWriterLock(wait: wait, cancellation: nil, waiting: { _ in }) { _ in try body() }
    }
}

/// The in-process vector scan a search hands a library that reads its vectors into the process:
/// given the library (a `LibraryStore`) and the passages it allows (nil: all), the best `k`.
struct VectorScan: Sendable {
    var run: @Sendable (LibraryStore, IdBitmap?) throws -> [(id: Int64, score: Float)]
}

/// A passage as it is known in any library: its document's URI and its ordinal there.
struct PassageLocator: Hashable, Sendable, CustomStringConvertible {
    var documentURI: String
    var ordinal: Int

    var description: String { "\(documentURI)#\(ordinal)" }
}

/// A second session of a library for reading beside the first, and the exact cosines of
/// passages by id (`LibraryBackend.concurrentReader`).
struct ConcurrentReader: Sendable {
    /// The session, opened by the first call and the same one after.
    let open: @Sendable () throws -> any LibraryBackend
    /// The float32 cosines to `vector` of those of `ids` that have a vector from `embedder`.
    let cosines: @Sendable (_ ids: [Int64], _ vector: [Float], _ embedder: EmbedderInfo) throws -> [(id: Int64, score: Float)]
}
