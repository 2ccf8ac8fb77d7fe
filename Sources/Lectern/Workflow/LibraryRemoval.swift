import Foundation

/// What `rm` or `prune` removed (or, for a dry run, would remove): the documents' URIs.
public struct RemovalResult: Codable, Sendable, Equatable, BatchOutcome {
    public var removed: [String] = []
    /// References that named nothing in the library.
    public var notFound: [String] = []
    var dryRun = false
    public var stopped: BatchStop?
    /// Vectors `prune` removed (or would remove) from the embedding cache: the work of ingests
    /// that were stopped and not run again.
    public var cachedVectors = 0
}

/// Removing documents, with their passages, vectors and summaries: by reference (`rm`), or every
/// document whose file or folder is gone (`prune`). Each reference is removed in one transaction.
public struct LibraryRemoval: Sendable {
    /// The library, on either backend (`Library`).
    var store: any LibraryBackend
    /// Checked between references.
    public var cancellation: Cancellation?

    public init(store: LibraryStore) {
        self.init(library: Library(store))
    }

    public init(library: Library) {
        store = library.backend
    }

    /// Removes what each reference (a path, a folder, a URI, a short id, a glob) names; one that names
    /// nothing is a `failed` event and a failure in `recorder`, and the others go on.
    public func remove(_ references: [String], recorder: RunRecorder?, events: EventHandler) throws -> RemovalResult {
        var result = RemovalResult()
        for reference in references {
            if cancellation?.isCancelled == true {
                result.stopped = .interrupted
                break
            }
            let documents = try DocumentReferences(backend: store).documents(reference)
            if documents.isEmpty {
                let reason = DocumentReferences.isGlob(reference) ? DocumentReferences.notFound(reference) : "not in the library"
                result.notFound.append(reference)
                recorder?.fail(input: reference, stage: "rm", reason: reason)
                events(PipelineEvent(.failed, input: reference, message: reason))
                continue
            }
            result.removed += try store.removeDocuments(documents)
        }
        recorder?.count("removed", by: result.removed.count)
        return result
    }

    /// Documents read from a file or folder that no longer exists (web sources are never gone).
    func documentsWhoseFilesAreGone() throws -> [StoredDocument] {
        try store.allDocuments().filter { document in
            guard let path = document.path else { return false }
            return !FileManager.default.fileExists(atPath: path)
        }
    }

    /// Removes every document whose file or folder is gone, or only lists them (`dryRun`).
    public func prune(dryRun: Bool, recorder: RunRecorder?) throws -> RemovalResult {
        let gone = try documentsWhoseFilesAreGone()
        guard !dryRun else {
            return RemovalResult(removed: gone.map(\.uri), dryRun: true, cachedVectors: try store.cachedVectorCount())
        }
        if cancellation?.isCancelled == true { return RemovalResult(stopped: .interrupted) }
        let removed = try store.removeDocuments(gone)
        recorder?.count("removed", by: removed.count)
        // The cache holds only vectors of documents not stored yet (storing one removes its
        // own): what is left is from stopped ingests. An ingest running now only loses its head start.
        let uncached = try store.clearEmbeddingCache()
        recorder?.count("cached_vectors_removed", by: uncached)
        return RemovalResult(removed: removed, cachedVectors: uncached)
    }
}
