/// Turns texts into L2-normalised vectors of `info.dimension` floats.
public protocol Embedder: Sendable {
    var info: EmbedderInfo { get }
    /// The tokenizer passages are sized with, so that a passage fits the model.
    var tokenCounter: any TokenCounter { get }
    /// One vector per text, in order. Long texts are truncated by the model as it must.
    func embed(_ texts: [String]) throws -> [[Float]]
    /// True for a model trained on English only: ingest warns about documents in other languages.
    var isEnglishOnly: Bool { get }
    /// Reads what the first `embed` would otherwise read (a model's weights and vocabulary), so
    /// that a caller can time embedding apart from loading. Nothing for embedders with nothing to read.
    func prepare() throws
}

extension Embedder {
    var isEnglishOnly: Bool { false }

    public func prepare() throws {}

    func embed(_ text: String) throws -> [Float] {
        try embed([text])[0]
    }
}
