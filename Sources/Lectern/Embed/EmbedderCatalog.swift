import Foundation

/// Makes embedders by name.
public enum EmbedderCatalog {
    public static let names = [HashingEmbedder.name, MiniLMEmbedder.name, "openai:<model>", "ollama:<model>"]

    /// The embedder called `name`: MiniLM from its folder under `modelsDirectory`, a remote one
    /// from the `remote` server's settings, reached through `http`.
    public static func make(_ name: String, modelsDirectory: String, remote: RemoteEmbeddingSettings, http: HTTPSettings) throws -> any Embedder {
        switch name {
        case HashingEmbedder.name:
            return HashingEmbedder()
        case MiniLMEmbedder.name:
            return try MiniLMEmbedder(directory: modelsDirectory + "/" + MiniLMEmbedder.model)
        case let remoteName where remoteName.hasPrefix(OpenAIEmbedder.prefix + ":") && remoteName.count > OpenAIEmbedder.prefix.count + 1:
            return try OpenAIEmbedder(model: String(remoteName.dropFirst(OpenAIEmbedder.prefix.count + 1)), settings: remote, http: http)
        case let remoteName where remoteName.hasPrefix(OllamaEmbedder.prefix + ":") && remoteName.count > OllamaEmbedder.prefix.count + 1:
            return try OllamaEmbedder(model: String(remoteName.dropFirst(OllamaEmbedder.prefix.count + 1)), settings: remote, http: http)
        default:
            throw LecternError(.configuration, "embedder", "unknown embedder '\(name)' (known: \(names.joined(separator: ", ")))")
        }
    }
}
