/// Names the model behind a `LanguageModel` and how much text it can read at once.
public struct LanguageModelInfo: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `openai`, `anthropic`, `ollama` (or `extractive` for the offline summariser).
    var provider: String
    var model: String
    /// The context window in tokens: prompts are trimmed to fit it with the answer.
    var contextTokens: Int

    public var description: String { "\(provider)/\(model)" }
}
