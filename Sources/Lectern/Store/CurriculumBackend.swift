import Foundation

/// The store operations of the curriculum wing (curricula and their topics, cards, summaries,
/// and the language model's answers), on either backend: the SQLite library
/// (`LibraryStore+Curricula`, `+Cards`, `+LLM`) or PostgreSQL (`PostgresLibrary+Curricula`,
/// `+Cards`, `+Summaries`). Every `LibraryBackend` is one, so the wing holds a library as
/// `any LibraryBackend` and never asks which it is.
protocol CurriculumBackend: AnyObject, Sendable {
    /// Files an export must never replace: the library file and its companions (none for a
    /// library on a server).
    var protectedPaths: ProtectedPaths { get }

    // MARK: Curricula

    /// Stores a curriculum's records, replacing any curriculum of the same name, in ONE
    /// transaction, with its topics' keyword rows and vectors (each the normalised mean of its
    /// passages' vectors from the library's embedder).
    func saveCurriculum(_ records: CurriculumRecords) throws
    /// Removes the curriculum named `name`; false when there is none.
    func removeCurriculum(named name: String) throws -> Bool
    /// The records of the curriculum named `name` (passages removed since the build left out).
    func curriculumRecords(named name: String) throws -> CurriculumRecords?
    func curriculumBuildKey(named name: String) throws -> String?
    /// Every curriculum, by name.
    func curriculumSummaries() throws -> [CurriculumSummary]
    /// The topic with this stable id and the name of its curriculum.
    func topicRecords(stableId: String) throws -> (curriculum: String, topic: TopicRecords)?
    /// The passage ids of a curriculum's topics (narrowed to `topicIds`), in reading order; nil
    /// when the curriculum or a topic id names nothing.
    func topicPassageIds(curriculum name: String?, topicIds: [String]) throws -> [Int64]?
    /// Topics holding any of the query's words, best BM25 first (FTS5's, columns title 8,
    /// objectives 1, key terms 2, summary 1), at most `limit`; only the curriculum's when named.
    func topicKeywordMatches(_ query: SearchQuery, limit: Int, curriculum: String?) throws -> [(id: Int64, score: Double)]
    /// Row ids of a curriculum's topics (all when nil); nil when no curriculum has that name.
    func topicRowIds(curriculum: String?) throws -> Set<Int64>?
    /// Every topic vector of `embedder`, for an exact nearest-neighbour search over topics.
    func topicVectorIndex(for embedder: EmbedderInfo) throws -> VectorIndex
    /// Topics by row id, in the order of `ids`, with their curriculum's name and unit title.
    func topicRecordsWithPlace(rowIds ids: [Int64]) throws -> [(curriculum: String, unit: String, topic: TopicRecords)]
    /// The library embedder's vectors of these documents' passages (those that have one), read
    /// at once: a build asks once for all its documents, not once per document.
    func passageVectors(documentIds: [Int64]) throws -> [Int64: [Float]]
    /// A document's blocks that hold an author's cross-references, and the headings naming a module.
    func crossReferenceBlocks(documentId: Int64) throws -> [Block]

    // MARK: Cards

    /// Replaces the cards of `topics` (all when nil) of curriculum `name`, and keeps `report`,
    /// in ONE transaction; a card whose GUID is already stored is left out.
    func replaceCards(_ cards: [CardRecord], curriculum name: String, topics: Set<String>?, report: CardReportRecord?) throws
    /// Stored cards in generation order, of curriculum `name` (all when nil), of `topics` when given.
    func cardRecords(curriculum name: String?, topics: [String]) throws -> [CardRecord]
    /// Removes cards by curriculum, topics and/or GUIDs (all given conditions hold); returns how many.
    func removeCards(curriculum name: String?, topics: [String], guids: [String]) throws -> Int
    /// The newest generate report of each curriculum (of `name` only when given).
    func latestCardReportRecords(curriculum name: String?) throws -> [CardReportRecord]

    // MARK: Summaries and the model's answers

    /// Replaces all summaries of a document in one transaction.
    func replaceSummaries(documentId: Int64, _ summaries: [StoredSummary]) throws
    func cachedResponse(key: String) throws -> ChatResponse?
    func cacheResponse(key: String, provider: String, template: String, _ response: ChatResponse) throws
    func recordModelCall(_ call: ModelCallRecord) throws
}
