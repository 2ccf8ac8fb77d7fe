import Foundation

/// Makes the configured language model, or nil when none is configured (the offline
/// extractive default).
public enum LanguageModelCatalog {
    /// The usual context window when `llm.context_tokens` is not set.
    static func defaultContext(provider: String) -> Int {
        switch provider {
        case "anthropic": return 200_000
        case "ollama": return 4_096
        default: return 8_192
        }
    }

    public static func make(_ settings: LLMSettings, http: HTTPSettings = HTTPSettings(),
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any LanguageModel)? {
        try make(settings, http: http, environment: environment, pause: HTTPClient.sleep)
    }

    /// The model whose HTTP client waits between attempts through `pause` (a test records the
    /// back-off delays instead of sleeping them).
    static func make(_ settings: LLMSettings, http: HTTPSettings, environment: [String: String],
                     pause: @escaping HTTPClient.Pause) throws -> (any LanguageModel)? {
        guard settings.hasModel, let provider = settings.provider else { return nil }
        guard let model = settings.model, !model.isEmpty else {
            throw LecternError(.configuration, "llm.model", "llm.provider is \(provider) but no llm.model is set")
        }
        let api: any ChatAPI.Type
        switch provider {
        case "openai": api = OpenAIChat.self
        case "anthropic": api = AnthropicChat.self
        case "ollama": api = OllamaChat.self
        default: throw LecternError(.configuration, "llm.provider", "unknown provider '\(provider)'")
        }
        let base = settings.baseURL ?? api.defaultBaseURL
        // The public APIs need a key; with no llm.api_key_env their usual variable is read.
        let keyVariable = settings.apiKeyEnv ?? (settings.baseURL == nil ? ["openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"][provider] : nil)
        var apiKey: String?
        if let keyVariable {
            apiKey = environment[keyVariable].flatMap { $0.isEmpty ? nil : $0 }
            if apiKey == nil {
                throw LecternError(.configuration, "llm.api_key_env", "the environment variable \(keyVariable) is not set (it should hold the \(provider) API key)")
            }
        }
        let info = LanguageModelInfo(provider: provider, model: model, contextTokens: settings.contextTokens ?? defaultContext(provider: provider))
        var httpSettings = http
        httpSettings.timeout = max(http.timeout, settings.timeout)
        let transport = ProviderTransport(
            baseURL: base, client: HTTPClient(settings: httpSettings, pause: pause),
            limit: ConcurrencyLimit.shared(for: provider + " " + base, limit: settings.maxConcurrency),
            apiKey: apiKey, timeout: settings.timeout, subject: info.description, contextTokens: info.contextTokens)
        return api.model(info: info, transport: transport)
    }
}
