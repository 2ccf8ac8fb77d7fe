import Foundation

/// What a `reembed` did: how many passages the library holds, how many got a vector in this
/// run, and whether the library switched to the new embedder.
public struct ReembedResult: Codable, Sendable, Equatable, BatchOutcome {
    public var embedder: String
    public var passages: Int
    public var embedded: Int
    /// True once every passage has a vector of `embedder` and the library uses it.
    public var switched: Bool
    public var stopped: BatchStop?
}

/// Moves a library to another embedder, resumably: vectors of the new embedder are written in
/// batches beside the old ones (a run stopped part-way keeps them, and the next run does only the
/// rest); once every passage has one, the library switches, dropping the old vectors, in one
/// transaction. Until then searches use the old embedder.
public struct Reembedding: Sendable {
    /// The library, on either backend (`Library`).
    var store: any LibraryBackend
    var target: any Embedder
    /// Passages embedded, and written, per transaction.
    var batchSize: Int
    /// Checked before each batch; a stop keeps the batches written and does not switch.
    public var cancellation: Cancellation?

    public init(store: LibraryStore, target: any Embedder, batchSize: Int = 256) {
        self.init(library: Library(store), target: target, batchSize: batchSize)
    }

    public init(library: Library, target: any Embedder, batchSize: Int = 256) {
        self.store = library.backend
        self.target = target
        self.batchSize = max(1, batchSize)
    }

    /// Embeds what lacks a vector of the target embedder, then switches. Reports a `progress`
    /// event per batch and counts `vectors` in `recorder`.
    public func run(recorder: RunRecorder?, events: EventHandler) throws -> ReembedResult {
        let info = target.info
        try store.setSetting("reembed_target", info.key)
        let total = try store.stats().passages
        var done = try store.passageIdsWithVectors(info).count
        var result = ReembedResult(embedder: info.description, passages: total, embedded: 0, switched: false)
        while true {
            if cancellation?.isCancelled == true {
                result.stopped = .interrupted
                return result
            }
            let pending = try store.passagesMissingVectors(info, limit: batchSize)
            if pending.isEmpty { break }
            let vectors = try recorder.map { try $0.time(.embed) { try target.embed(pending.map(\.text)) } }
                ?? target.embed(pending.map(\.text))
            try store.addVectors(ids: pending.map(\.id), vectors: vectors, embedder: info)
            done += pending.count
            result.embedded += pending.count
            recorder?.count("vectors", by: pending.count)
            recorder?.checkpoint()
            events(PipelineEvent(.progress, input: "reembed", message: info.name, index: done, total: total))
        }
        try store.switchEmbedder(to: info)
        result.switched = true
        return result
    }
}
