import Foundation

/// Which language model Lectern uses (`[llm]` in configuration). With no provider, summaries
/// are extractive and `ask` shows passages without an answer.
public struct LLMSettings: Sendable, Equatable {
    /// `openai` (any OpenAI-compatible server), `anthropic`, `ollama`, or `extractive`/nil for none.
    public var provider: String?
    public var model: String?
    /// Where the API lives; each provider has its public default.
    var baseURL: String?
    /// The NAME of the environment variable that holds the API key, never the key itself.
    var apiKeyEnv: String?
    /// Requests in flight at once to one provider.
    public var maxConcurrency: Int = 2
    /// The context window; prompts are trimmed to fit it. Nil = the provider's usual size.
    var contextTokens: Int?
    /// The most tokens an answer may have.
    public var maxTokens: Int = 512
    public var temperature: Double = 0
    /// Seconds one call may take (a local model on a small CPU is slow).
    var timeout: Double = 300
    /// US dollars per million tokens, by model name.
    public var prices: [String: ModelPrice] = [:]

    init() {}

    public static let providers = ["openai", "anthropic", "ollama", "extractive"]

    /// True when `llm.provider` is `extractive`: no model, by choice.
    public var isExtractive: Bool { provider == "extractive" }

    /// True when a real model is configured (not the offline extractive default).
    var hasModel: Bool {
        guard let provider, !provider.isEmpty else { return false }
        return provider != "extractive"
    }
}
