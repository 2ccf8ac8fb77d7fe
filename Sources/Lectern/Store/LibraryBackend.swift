import Foundation

/// The store operations that ingest and search need, behind which a library is one SQLite file
/// (`LibraryStore`) or a PostgreSQL database (`PostgresLibrary`). Added beside the SQLite
/// store's own API, which the rest of Lectern still calls directly: the commands move onto this
/// seam one operation at a time, each tested on both backends (`LibraryBackendTests`).
protocol LibraryBackend: AnyObject {
    /// How messages name the library: a path, or a URL without its password.
    var display: String { get }

    /// Stores one document with its blocks, passages and their vectors in one transaction,
    /// replacing what the library held under the same URI; returns the document's id.
    @discardableResult
    func replaceDocument(_ write: LibraryStore.DocumentWrite) throws -> Int64

    /// Passages that hold any of the query's words, best BM25 first (higher is better), at most
    /// `limit`: the same ranking on both backends.
    func keywordMatches(_ query: SearchQuery, limit: Int) throws -> [(id: Int64, score: Double)]

    /// The `k` passages whose vectors from `embedder` are nearest to `vector` by cosine, best
    /// first, scored in float32.
    func nearestPassages(to vector: [Float], k: Int, embedder: EmbedderInfo) throws -> [(id: Int64, score: Float)]

    /// Where each of `ids` is: its document's URI and its place in it, the identity a passage
    /// keeps across libraries (row ids differ between backends).
    func passageLocators(_ ids: [Int64]) throws -> [Int64: PassageLocator]

    /// Runs `body` holding the library's writer lock, which `lectern run` and the workers of a
    /// queue take so that one writer at a time does the finishing stages: a lock file beside a
    /// SQLite library, a session-level advisory lock in PostgreSQL (so across machines).
    /// Held by another process: throws `RunLock.Held`, or with `wait` waits until it is free.
    func withWriterLock<T>(wait: Bool, _ body: () throws -> T) throws -> T
}

/// A passage as it is known in any library: its document's URI and its ordinal there.
struct PassageLocator: Hashable, Sendable, CustomStringConvertible {
    var documentURI: String
    var ordinal: Int

    var description: String { "\(documentURI)#\(ordinal)" }
}
