import ArgumentParser
import Lectern

/// The language-model flags `summarize` and `ask` share. They are the command-line layer of
/// `[llm]`, so they beat `LECTERN_LLM_*` variables, which beat the config file.
struct LLMOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The language model's provider: \(LLMSettings.providers.joined(separator: ", ")) (llm.provider).",
                               valueName: "name"))
    var provider: String?

    @Option(help: ArgumentHelp("The model, as the provider names it (llm.model).", valueName: "name"))
    var model: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Where the provider's API is (llm.base_url).", valueName: "url"))
    var baseURL: String?

    @Option(name: .customLong("api-key-env"),
            help: ArgumentHelp("The NAME of the environment variable that holds the API key, never the key (llm.api_key_env).",
                               valueName: "variable"))
    var apiKeyEnv: String?

    /// The flags given, as configuration keys.
    var flags: [String: ConfigValue] {
        var flags: [String: ConfigValue] = [:]
        if let provider { flags["llm.provider"] = .string(provider) }
        if let model { flags["llm.model"] = .string(model) }
        if let baseURL { flags["llm.base_url"] = .string(baseURL) }
        if let apiKeyEnv { flags["llm.api_key_env"] = .string(apiKeyEnv) }
        return flags
    }
}
