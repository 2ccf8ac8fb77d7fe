extension EmbedderCatalog {
    /// The embedder called `name`, with the configuration's models folder, embedding server and HTTP settings.
    public static func make(_ name: String, configuration: Configuration) throws -> any Embedder {
        try make(name, modelsDirectory: configuration.modelsDirectory, remote: configuration.embedding, http: configuration.http)
    }
}
