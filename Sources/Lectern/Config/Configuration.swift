import Foundation

/// Everything a run is configured with, merged from (highest first) flags, `LECTERN_*`
/// environment variables, a pipeline file, the user's config file, and defaults.
public struct Configuration: Sendable {
    public var database: String = "lectern.db"
    /// The embedder a NEW database is built with; a database keeps the one it was built with.
    public var embedder: String = MiniLMEmbedder.name
    public var modelsDirectory: String = Configuration.defaultModelsDirectory
    /// The remote embedder's server (`openai:<model>`, `ollama:<model>`).
    public var embedding = RemoteEmbeddingSettings()
    public var chunk = ChunkSettings()
    public var http = HTTPSettings()
    /// Where `openstax:` specs look books up (`[openstax]`).
    public var openstax = OpenStaxSettings()
    public var searchLimit: Int = 10
    /// The language model for summaries and `ask` (`[llm]`); none = offline extractive.
    public var llm = LLMSettings()
    /// Which layer set each key, for `lectern doctor` and error messages.
    public var origins: [String: String] = [:]
    /// Settings later issues read (llm.*, pipeline keys) that this struct has no field for.
    public var extra: [String: ConfigValue] = [:]

    public init() {}

    /// The keys this version understands, for the environment mapping and for warnings.
    public static let knownKeys = [
        "database", "embedder", "models_dir", "chunk.max_tokens", "chunk.overlap_tokens", "chunk.min_tokens",
        "http.connect_timeout", "http.timeout", "http.max_redirects", "http.max_response_mb", "http.retries",
        "http.retry_delay", "http.max_retry_delay", "http.contact", "http.host_interval", "search.k",
        "openstax.book_list", "openstax.archive",
        "embedding.url", "embedding.api_key_env", "embedding.dimensions", "embedding.batch",
    ] + llmKeys
    /// Keys whose values are paths, resolved against the folder of the file that set them.
    static let pathKeys: Set<String> = ["database", "models_dir"]

    public static var defaultModelsDirectory: String {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.cache/lectern/models"
    }

    /// `$XDG_CONFIG_HOME/lectern/config.toml`, else `~/.config/lectern/config.toml`;
    /// `$LECTERN_CONFIG` names another file.
    public static func userConfigPath(environment: [String: String]) -> String {
        if let path = environment["LECTERN_CONFIG"], !path.isEmpty { return path }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.config"
        return base + "/lectern/config.toml"
    }

    /// Merges layers given lowest precedence first.
    public static func merge(_ layers: [ConfigLayer]) throws -> Configuration {
        var merged: [String: (ConfigValue, ConfigLayer)] = [:]
        for layer in layers {
            for (key, value) in layer.values { merged[key] = (value, layer) }
        }
        var configuration = Configuration()
        // Sorted, so that an error names the same key on every run.
        for key in merged.keys.sorted() {
            let (value, layer) = merged[key]!
            configuration.origins[key] = layer.name
            let resolved = pathKeys.contains(key) ? resolvePath(value.description, base: layer.baseDirectory) : nil
            try configuration.apply(key: key, value: value, resolvedPath: resolved, layer: layer.name)
        }
        try configuration.validate()
        return configuration
    }

    /// Rules between keys, checked once all layers are merged: a pair that is valid together
    /// must not fail because one of them was applied before the other.
    func validate() throws {
        if chunk.overlapTokens >= chunk.maxTokens {
            let layer = origins["chunk.overlap_tokens"] ?? origins["chunk.max_tokens"] ?? "defaults"
            throw LecternError(
                .configuration, layer,
                "chunk.overlap_tokens (\(chunk.overlapTokens)) must be smaller than chunk.max_tokens (\(chunk.maxTokens))")
        }
    }

    /// The usual stack: defaults < user config file < pipeline file < environment < flags.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        pipelineFile: ConfigLayer? = nil,
        flags: [String: ConfigValue] = [:]
    ) throws -> Configuration {
        var layers = [try ConfigLayer.file(userConfigPath(environment: environment), optional: environment["LECTERN_CONFIG"] == nil)]
        if let pipelineFile { layers.append(pipelineFile) }
        layers.append(ConfigLayer.environment(environment, knownKeys: knownKeys))
        layers.append(ConfigLayer(name: "command line", values: flags))
        return try merge(layers)
    }

    /// `path` made absolute (`~` expanded), relative to `base` or else the working directory: how
    /// configuration files and the command line's inputs name files.
    public static func resolvePath(_ path: String, base: String?) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") {
            path = FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst()
        }
        if path.hasPrefix("/") || path == ":memory:" { return path }
        let directory = base.flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL.path
    }

    mutating func apply(key: String, value: ConfigValue, resolvedPath: String?, layer: String) throws {
        func int() throws -> Int {
            switch value {
            case .int(let i): return i
            case .double(let d) where d == d.rounded(): return Int(d)
            default: throw LecternError(.configuration, layer, "\(key) must be a whole number, not '\(value)'")
            }
        }
        func double() throws -> Double {
            switch value {
            case .int(let i): return Double(i)
            case .double(let d): return d
            default: throw LecternError(.configuration, layer, "\(key) must be a number, not '\(value)'")
            }
        }
        func positive(_ n: Int) throws -> Int {
            guard n > 0 else { throw LecternError(.configuration, layer, "\(key) must be greater than 0") }
            return n
        }
        switch key {
        case "database": database = resolvedPath ?? value.description
        case "embedder": embedder = value.description
        case "models_dir": modelsDirectory = resolvedPath ?? value.description
        case "chunk.max_tokens":
            chunk.maxTokens = try positive(int())
            guard chunk.maxTokens <= 510 else { throw LecternError(.configuration, layer, "chunk.max_tokens must be at most 510") }
        case "chunk.overlap_tokens": chunk.overlapTokens = max(0, try int())
        case "chunk.min_tokens": chunk.minTokens = max(0, try int())
        case "http.connect_timeout": http.connectTimeout = try double()
        case "http.timeout": http.timeout = try double()
        case "http.max_redirects": http.maxRedirects = try int()
        case "http.max_response_mb": http.maxResponseBytes = try positive(int()) << 20
        case "http.retries": http.maxRetries = max(0, try int())
        case "http.retry_delay": http.retryBaseDelay = max(0, try double())
        case "http.max_retry_delay": http.maxRetryDelay = max(0, try double())
        case "http.contact": http.contact = value.description
        case "http.host_interval": http.hostInterval = max(0, try double())
        case "openstax.book_list": openstax.bookList = value.description
        case "openstax.archive":
            guard value.description.contains("{repository}") else {
                throw LecternError(.configuration, layer, "openstax.archive must contain {repository}")
            }
            openstax.archive = value.description
        case "search.k": searchLimit = try positive(int())
        case "embedding.url": embedding.url = value.description
        case "embedding.api_key_env": embedding.apiKeyEnv = value.description
        case "embedding.dimensions": embedding.dimensions = try positive(int())
        case "embedding.batch": embedding.batch = try positive(int())
        default:
            if try !applyLLM(key: key, value: value, layer: layer) { extra[key] = value }
        }
    }
}
