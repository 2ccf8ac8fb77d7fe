import Foundation

/// Makes embedders by name, and decides which one a library uses: the one it was built
/// with wins; a new library gets the configured default.
public enum EmbedderCatalog {
    public static let names = [HashingEmbedder.name, MiniLMEmbedder.name, "openai:<model>", "ollama:<model>"]

    public static func make(_ name: String, configuration: Configuration) throws -> any Embedder {
        switch name {
        case HashingEmbedder.name:
            return HashingEmbedder()
        case MiniLMEmbedder.name:
            return try MiniLMEmbedder(directory: configuration.modelsDirectory + "/" + MiniLMEmbedder.model)
        case let remote where remote.hasPrefix(OpenAIEmbedder.prefix + ":") && remote.count > OpenAIEmbedder.prefix.count + 1:
            return try OpenAIEmbedder(model: String(remote.dropFirst(OpenAIEmbedder.prefix.count + 1)),
                                      settings: configuration.embedding, http: configuration.http)
        case let remote where remote.hasPrefix(OllamaEmbedder.prefix + ":") && remote.count > OllamaEmbedder.prefix.count + 1:
            return try OllamaEmbedder(model: String(remote.dropFirst(OllamaEmbedder.prefix.count + 1)),
                                      settings: configuration.embedding, http: configuration.http)
        default:
            throw LecternError(.configuration, "embedder", "unknown embedder '\(name)' (known: \(names.joined(separator: ", ")))")
        }
    }

    /// The embedder for `store`: its recorded one, else `requested` or the configured default.
    /// An explicit request that differs from the recorded one is an error, never a silent switch.
    public static func resolve(store: LibraryStore, configuration: Configuration, requested: String? = nil) throws -> any Embedder {
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
