// Store- and configuration-bound: belongs in Pipeline (DESIGN.md's layering); it waits here
// until the Pipeline rewrite has merged (LayeringTests.pendingMoves names it).
extension EmbedderCatalog {
    /// The embedder for `store`: its recorded one, else `requested` or the configured default.
    /// An explicit request that differs from the recorded one is an error, never a silent switch.
    public static func resolve(store: LibraryStore, configuration: Configuration, requested: String? = nil) throws -> any Embedder {
        try resolve(library: Library(store), configuration: configuration, requested: requested)
    }

    /// `resolve(store:…)` for a library on either backend.
    public static func resolve(library: Library, configuration: Configuration, requested: String? = nil) throws -> any Embedder {
        let store = library.backend
        if let recorded = try store.recordedEmbedder() {
            if let requested, requested != recorded.name {
                throw LecternError(.embedderMismatch, store.display, "this library was built with the \(recorded.name) embedder; run `lectern reembed --embedder \(requested)` to switch")
            }
            let embedder = try make(recorded.name, configuration: configuration)
            guard embedder.info == recorded else {
                throw LecternError(.embedderMismatch, store.display, "this library was built with \(recorded.key), this lectern has \(embedder.info.key): run `lectern reembed --embedder \(recorded.name)`")
            }
            return embedder
        }
        return try make(requested ?? configuration.embedder, configuration: configuration)
    }
}
