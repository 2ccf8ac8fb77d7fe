import Foundation

/// Which language model Lectern uses (`[llm]` in configuration). With no provider, summaries
/// are extractive and `ask` shows passages without an answer.
public struct LLMSettings: Sendable, Equatable {
    /// `openai` (any OpenAI-compatible server), `anthropic`, `ollama`, or `extractive`/nil for none.
    public var provider: String?
    public var model: String?
    /// Where the API lives; each provider has its public default.
    public var baseURL: String?
    /// The NAME of the environment variable that holds the API key, never the key itself.
    public var apiKeyEnv: String?
    /// Requests in flight at once to one provider.
    public var maxConcurrency: Int = 2
    /// The context window; prompts are trimmed to fit it. Nil = the provider's usual size.
    public var contextTokens: Int?
    /// The most tokens an answer may have.
    public var maxTokens: Int = 512
    public var temperature: Double = 0
    /// Seconds one call may take (a local model on a small CPU is slow).
    public var timeout: Double = 300
    /// US dollars per million tokens, by model name.
    public var prices: [String: ModelPrice] = [:]

    public init() {}

    public static let providers = ["openai", "anthropic", "ollama", "extractive"]

    /// True when a real model is configured (not the offline extractive default).
    public var hasModel: Bool {
        guard let provider, !provider.isEmpty else { return false }
        return provider != "extractive"
    }
}

/// What a model costs, in US dollars per million tokens.
public struct ModelPrice: Sendable, Equatable, Codable {
    public var input: Double
    public var output: Double

    public init(input: Double, output: Double) {
        self.input = input
        self.output = output
    }

    public func cost(inputTokens: Int, outputTokens: Int) -> Double {
        (Double(inputTokens) * input + Double(outputTokens) * output) / 1_000_000
    }

    /// `gpt-4o-mini=0.15/0.60,claude-3-5-haiku-latest=0.8/4` (the form for env and flags).
    static func parseList(_ text: String) throws -> [String: ModelPrice] {
        var prices: [String: ModelPrice] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            let numbers = parts.count == 2 ? parts[1].split(separator: "/").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } : []
            guard parts.count == 2, numbers.count == 2 else {
                throw LecternError(.configuration, "llm.prices", "'\(entry)' is not MODEL=INPUT/OUTPUT (dollars per million tokens)")
            }
            prices[parts[0].trimmingCharacters(in: .whitespaces)] = ModelPrice(input: numbers[0], output: numbers[1])
        }
        return prices
    }
}
