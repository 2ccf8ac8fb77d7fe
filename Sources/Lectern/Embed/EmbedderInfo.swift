/// Names one embedding model exactly, so that vectors of different models are never mixed.
public struct EmbedderInfo: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The name users choose it by (`hashing`, `minilm`, `openai:…`).
    var name: String
    /// The model behind it (`all-MiniLM-L6-v2`, `feature-hashing`).
    var model: String
    var dimension: Int
    /// Bumped when the same name would produce different vectors.
    var version: Int

    init(name: String, model: String, dimension: Int, version: Int) {
        self.name = name
        self.model = model
        self.dimension = dimension
        self.version = version
    }

    /// The identity stored with every vector block and in the database's settings.
    public var key: String { "\(name)/\(model)@\(version)x\(dimension)" }
    public var description: String { "\(name) (\(model), \(dimension) dimensions)" }
}
