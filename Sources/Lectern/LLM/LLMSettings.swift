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

extension Configuration {
    static let llmKeys = [
        "llm.provider", "llm.model", "llm.base_url", "llm.api_key_env", "llm.max_concurrency", "llm.context_tokens",
        "llm.max_tokens", "llm.temperature", "llm.timeout", "llm.prices",
    ]

    /// Applies an `llm.*` key; false when `key` is not one.
    mutating func applyLLM(key: String, value: ConfigValue, layer: String) throws -> Bool {
        func number() throws -> Double {
            switch value {
            case .int(let i): return Double(i)
            case .double(let d): return d
            default: throw LecternError(.configuration, layer, "\(key) must be a number, not '\(value)'")
            }
        }
        func positiveInt() throws -> Int {
            let n = try number()
            guard n >= 1, n == n.rounded() else { throw LecternError(.configuration, layer, "\(key) must be a whole number greater than 0") }
            return Int(n)
        }
        switch key {
        case "llm.provider":
            let name = value.description.lowercased()
            guard LLMSettings.providers.contains(name) || name.isEmpty else {
                throw LecternError(.configuration, layer, "llm.provider '\(value)' is not one of \(LLMSettings.providers.joined(separator: ", "))")
            }
            llm.provider = name.isEmpty ? nil : name
        case "llm.model": llm.model = value.description
        case "llm.base_url": llm.baseURL = value.description
        case "llm.api_key_env":
            let name = value.description
            guard name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
                // Someone pasted the key itself: say so without repeating it.
                throw LecternError(.configuration, layer, "llm.api_key_env must be the NAME of an environment variable (like OPENAI_API_KEY), not a key")
            }
            llm.apiKeyEnv = name
        case "llm.max_concurrency": llm.maxConcurrency = try positiveInt()
        case "llm.context_tokens": llm.contextTokens = try positiveInt()
        case "llm.max_tokens": llm.maxTokens = try positiveInt()
        case "llm.temperature": llm.temperature = try number()
        case "llm.timeout": llm.timeout = max(1, try number())
        case "llm.prices": llm.prices.merge(try ModelPrice.parseList(value.description)) { _, new in new }
        default:
            // [llm.prices."MODEL"] input = … output = … in TOML.
            guard key.hasPrefix("llm.prices.") else { return false }
            let rest = key.dropFirst("llm.prices.".count)
            guard let dot = rest.lastIndex(of: "."), ["input", "output"].contains(rest[rest.index(after: dot)...]) else {
                throw LecternError(.configuration, layer, "\(key): prices are [llm.prices.\"MODEL\"] input = … output = … (dollars per million tokens)")
            }
            let model = String(rest[..<dot]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            var price = llm.prices[model] ?? ModelPrice(input: 0, output: 0)
            if rest[rest.index(after: dot)...] == "input" { price.input = try number() } else { price.output = try number() }
            llm.prices[model] = price
        }
        return true
    }
}
