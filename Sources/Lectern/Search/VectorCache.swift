import Foundation

/// One request that may search several times (a tutoring context asks its question of a
/// topic's passages, then of the library's): its scans are alike in what they read, so the
/// first request of a session streams every one of them (a one-shot `lectern context` never
/// loads the library's vectors into its memory).
final class SearchRequest: Sendable {}

/// The library's vectors as a searcher last read them, kept while the library's vector
/// generation (every vector write draws a new one) and the embedder stay the same: its sidecar
/// mapped (`VectorSidecar`), or the vectors loaded into memory.
final class VectorCache: Sendable {
    enum Loaded: Sendable {
        case compact(CompactVectors)
        /// A library whose compact blocks are incomplete: the float32 rows, scanned exactly.
        case exact(VectorIndex)
    }

    /// Where a search's scan read the vectors.
    enum Source: Equatable, Sendable {
        /// In place, from the library's sidecar.
        case sidecar
        /// From the library, a chunk of blocks at a time.
        case streamed
        /// From this process's memory, loaded from the library.
        case loaded
    }

    private struct Kept {
        var key: (generation: String, embedder: String)?
        var loaded: Loaded?
        /// The request whose scans stream the library; nil before the first scan.
        var streamedIn: SearchRequest?
        /// The last streamed scan wrote the library's sidecar: after the next change a scan
        /// streams again (writing it anew) rather than load the vectors.
        var writesSidecar = false
        var lastSource: Source?
    }
    private let kept = Locked(Kept())

    /// Whether vectors are loaded into this process's memory now (a mapped sidecar is not:
    /// its pages are the file's, shared by every process).
    var holdsVectors: Bool {
        kept.withLock { kept in
            if case .compact(let vectors)? = kept.loaded, vectors.isMapped { return false }
            return kept.loaded != nil
        }
    }

    /// Where the last search's scan read the vectors.
    var lastSource: Source? { kept.withLock { $0.lastSource } }

    /// The vectors a search scans: those kept when they are current, else the library's sidecar
    /// when it is current; nil for the scans of a cache's first request, which stream the
    /// library's blocks a chunk at a time instead (a one-shot `lectern search` makes one search:
    /// loading every vector into its memory cost more than the scan), and for a library whose
    /// streamed scan writes its sidecar. A later request loads and keeps them.
    func vectorsForSearch(store: LibraryStore, embedder: EmbedderInfo, request: SearchRequest?) throws -> Loaded? {
        let key = try store.vectorKey()
        let load: Bool = kept.withLock { kept in
            if let current = kept.key, kept.loaded != nil, current.generation == key.generation, current.embedder == embedder.key { return false }
            kept.loaded = nil
            if let mapped = store.mappedVectors(embedder: embedder, key: key) {
                kept.key = (key.generation, embedder.key)
                kept.loaded = .compact(mapped)
                return false
            }
            guard kept.streamedIn == nil || (request != nil && kept.streamedIn === request) || kept.writesSidecar else { return true }
            if kept.streamedIn == nil { kept.streamedIn = request ?? SearchRequest() }
            return false
        }
        if load { return try vectors(store: store, embedder: embedder) }
        return kept.withLock { kept in
            guard let loaded = kept.loaded else { return nil }
            if case .compact(let vectors) = loaded, vectors.isMapped { kept.lastSource = .sidecar } else { kept.lastSource = .loaded }
            return loaded
        }
    }

    /// A streamed scan was made (`vectorsForSearch` said to), and wrote the sidecar or not.
    func streamed(wroteSidecar: Bool) {
        kept.withLock { kept in
            kept.writesSidecar = wroteSidecar
            kept.lastSource = .streamed
        }
    }

    func vectors(store: LibraryStore, embedder: EmbedderInfo) throws -> Loaded {
        let generation = try store.vectorKey().generation
        return try kept.withLock { kept in
            kept.lastSource = .loaded
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
