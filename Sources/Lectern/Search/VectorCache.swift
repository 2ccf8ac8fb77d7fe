import Foundation

/// The library's vectors as a searcher last loaded them, kept while the library's vector
/// generation (every vector write advances it) and the embedder stay the same.
final class VectorCache: Sendable {
    enum Loaded: Sendable {
        case compact(CompactVectors)
        /// A library whose compact blocks are incomplete: the float32 rows, scanned exactly.
        case exact(VectorIndex)
    }

    private struct Kept {
        var key: (generation: String, embedder: String)?
        var loaded: Loaded?
        /// Whether a search has scanned the library without loading its vectors.
        var streamed = false
    }
    private let kept = Locked(Kept())

    /// Whether vectors are kept now.
    var holdsVectors: Bool { kept.withLock { $0.loaded != nil } }

    /// The vectors a search scans: those kept when they are current; nil for the first search
    /// of a cache that holds none, which scans the library's blocks a chunk at a time instead
    /// (a one-shot `lectern search` makes one search: loading every vector into its memory cost
    /// more than the scan). A second search loads and keeps them.
    func vectorsForSearch(store: LibraryStore, embedder: EmbedderInfo) throws -> Loaded? {
        let generation = try store.vectorGeneration()
        let stream = kept.withLock { kept in
            if let key = kept.key, kept.loaded != nil, key.generation == generation, key.embedder == embedder.key { return false }
            defer { kept.streamed = true }
            return !kept.streamed
        }
        return stream ? nil : try vectors(store: store, embedder: embedder)
    }

    func vectors(store: LibraryStore, embedder: EmbedderInfo) throws -> Loaded {
        let generation = try store.vectorGeneration()
        return try kept.withLock { kept in
            if let key = kept.key, let loaded = kept.loaded, key.generation == generation, key.embedder == embedder.key { return loaded }
            // Let go of the old vectors before reading the new ones.
            kept.loaded = nil
            let fresh: Loaded
            if let compact = try store.compactVectors(embedder: embedder) {
                fresh = .compact(compact)
            } else {
                fresh = .exact(try store.vectorIndex(for: embedder))
            }
            kept.key = (generation, embedder.key)
            kept.loaded = fresh
            return fresh
        }
    }
}

/// The embedder a searcher embeds queries with: given, or made by the first search that
/// needs it and kept (a failure is not kept: the next search tries again and says why).
final class QueryEmbedder: Sendable {
    private let made = Locked<(any Embedder)?>(nil)
    private let make: @Sendable () throws -> any Embedder

    init(_ embedder: any Embedder) {
        made.withLock { $0 = embedder }
        make = { embedder }
    }

    init(making make: @escaping @Sendable () throws -> any Embedder) {
        self.make = make
    }

    convenience init(_ make: @escaping @Sendable () throws -> any Embedder) {
        self.init(making: make)
    }

    func embedder() throws -> any Embedder {
        try made.withLock { made in
            if let made { return made }
            let embedder = try make()
            made = embedder
            return embedder
        }
    }
}
