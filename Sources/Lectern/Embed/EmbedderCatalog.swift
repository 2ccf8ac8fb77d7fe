import Foundation

/// Makes embedders by name.
public enum EmbedderCatalog {
    static let names = [HashingEmbedder.name] + MiniLMEmbedder.names + RemoteEmbeddingAPI.all.map { $0.prefix + ":<model>" }

    /// The embedder called `name`: MiniLM from its folder under `modelsDirectory`, a remote one
    /// from the `remote` server's settings, reached through `http`.
    static func make(_ name: String, modelsDirectory: String, remote: RemoteEmbeddingSettings, http: HTTPSettings) throws -> any Embedder {
        switch name {
        case HashingEmbedder.name:
            return HashingEmbedder()
        case MiniLMEmbedder.name:
            return try MiniLMEmbedder(directory: modelsDirectory + "/" + MiniLMEmbedder.model)
        case MiniLMEmbedder.bfloat16Name:
            return try MiniLMEmbedder(directory: modelsDirectory + "/" + MiniLMEmbedder.model, precision: .bfloat16)
        case MiniLMEmbedder.int8Name:
            return try MiniLMEmbedder(directory: modelsDirectory + "/" + MiniLMEmbedder.model, precision: .int8)
        default:
            for api in RemoteEmbeddingAPI.all where name.hasPrefix(api.prefix + ":") && name.count > api.prefix.count + 1 {
                return try RemoteEmbedder(api, model: String(name.dropFirst(api.prefix.count + 1)), settings: remote, http: http)
            }
            throw LecternError(.configuration, "embedder", "unknown embedder '\(name)' (known: \(names.joined(separator: ", ")))")
        }
    }
}
