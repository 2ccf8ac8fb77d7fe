import Foundation

/// Everything a run is configured with, merged from (highest first) flags, `LECTERN_*`
/// environment variables, a pipeline file, the user's config file, and defaults. Which keys
/// exist, what they hold and how they are checked is `ConfigKey.all`.
public struct Configuration: Sendable {
    /// The library file; without `--db`, `LECTERN_DB` or a config value, one file in the
    /// user's data directory (`defaultDatabasePath`), whatever folder the command runs in.
    public var database: String = Configuration.defaultDatabasePath(environment: ProcessInfo.processInfo.environment)
    /// The embedder a NEW database is built with; a database keeps the one it was built with.
    public var embedder: String = MiniLMEmbedder.name
    var modelsDirectory: String = Configuration.defaultModelsDirectory(environment: ProcessInfo.processInfo.environment)
    /// The remote embedder's server (`openai:<model>`, `ollama:<model>`).
    var embedding = RemoteEmbeddingSettings()
    public var chunk = ChunkSettings()
    public var http = HTTPSettings()
    /// Where `openstax:` specs look books up (`[openstax]`).
    public var openstax = OpenStaxSettings()
    /// Where `wikipedia:` and `ocw:` specs are fetched from (`[wikipedia]`, `[ocw]`).
    public var webSources = WebSourceSettings()
    public var searchLimit: Int = 10
    /// `search.sidecar_vectors`: from how many vectors a library keeps a vector sidecar (0: never).
    public var vectorSidecarMinimum = Configuration.defaultVectorSidecarMinimum
    /// Below it a library's int8 codes are a few tens of megabytes, which SQLite's own
    /// memory-mapped file gives a scan about as quickly as a sidecar would.
    public static let defaultVectorSidecarMinimum = 50_000
    /// When and in which languages PDF pages are read with OCR (`[ocr]`).
    public var ocr = OCRSettings()
    /// `ocr.languages` as written, checked in `validate()`.
    var ocrLanguages = OCRSettings.defaultLanguages.joined(separator: "+")
    /// The language model for summaries and `ask` (`[llm]`); none = offline extractive.
    public var llm = LLMSettings()
    /// Which layer set each key, for `lectern doctor` and error messages.
    var origins: [String: String] = [:]
    /// Keys no row of `ConfigKey.all` knows, with their values (each one also a warning when it
    /// came from a file).
    var extra: [String: ConfigValue] = [:]
    /// Unknown keys in the files read, for the CLI to print (one line each) and `doctor` to list.
    public var warnings: [ConfigWarning] = []

    init() {}

    /// The keys this version understands.
    static var knownKeys: [String] { ConfigKey.all.map(\.name) }

    /// `$XDG_CACHE_HOME/lectern/models`, else `$HOME/.cache/lectern/models`: the folder `make
    /// model` fills by the same rule (`LECTERN_MODELS`, the `models_dir` key, wins over both).
    public static func defaultModelsDirectory(environment: [String: String]) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? homeDirectory(environment: environment) + "/.cache"
        return base + "/lectern/models"
    }

    /// `$XDG_DATA_HOME/lectern/library.db`, else `~/.local/share/lectern/library.db`: the
    /// XDG base directories' place for a user's data files.
    public static func defaultDatabasePath(environment: [String: String]) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? homeDirectory(environment: environment) + "/.local/share"
        return base + "/lectern/library.db"
    }

    /// `$HOME`, else the account's home directory.
    static func homeDirectory(environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
    }

    /// True when no flag, variable or file named the library (set by `load`): it is the
    /// default one, whose folder the first write makes.
    public private(set) var usesDefaultDatabase = false

    /// `$XDG_CONFIG_HOME/lectern/config.toml`, else `~/.config/lectern/config.toml`;
    /// `$LECTERN_CONFIG` names another file.
    public static func userConfigPath(environment: [String: String]) -> String {
        if let path = environment["LECTERN_CONFIG"], !path.isEmpty { return path }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? homeDirectory(environment: environment) + "/.config"
        return base + "/lectern/config.toml"
    }

    /// Merges layers given lowest precedence first.
    static func merge(_ layers: [ConfigLayer]) throws -> Configuration {
        var merged: [String: (ConfigValue, ConfigLayer)] = [:]
        for layer in layers {
            for (key, value) in layer.values { merged[key] = (value, layer) }
        }
        var configuration = Configuration()
        configuration.warnings = layers.flatMap(\.warnings)
        // Sorted, so that an error names the same key on every run.
        for key in merged.keys.sorted() {
            let (value, layer) = merged[key]!
            configuration.origins[key] = layer.name
            guard let row = ConfigKey.named(key) else {
                configuration.extra[key] = value
                continue
            }
            try row.set(&configuration, key: key, value: value, layer: layer)
        }
        try configuration.validate()
        return configuration
    }

    /// Rules between keys, checked once all layers are merged: a pair that is valid together
    /// must not fail because one of them was applied before the other.
    mutating func validate() throws {
        guard let languages = OCRSettings.parseLanguages(ocrLanguages) else {
            throw LecternError(.configuration, origins["ocr.languages"] ?? "defaults",
                               "ocr.languages (\(ocrLanguages)) must be Tesseract language codes joined by `+`, such as eng+deu")
        }
        ocr.languages = languages
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
        layers.append(ConfigLayer.environment(environment))
        layers.append(ConfigLayer(name: "command line", values: flags))
        var configuration = try merge(layers)
        if configuration.origins["models_dir"] == nil {
            configuration.modelsDirectory = defaultModelsDirectory(environment: environment)
        }
        if configuration.origins["database"] == nil {
            configuration.database = defaultDatabasePath(environment: environment)
            configuration.usesDefaultDatabase = true
        }
        return configuration
    }

    /// `path` made absolute (`~` expanded), relative to `base` or else the working directory: how
    /// configuration files and the command line's inputs name files.
    public static func resolvePath(_ path: String, base: String?) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") {
            path = homeDirectory(environment: ProcessInfo.processInfo.environment) + path.dropFirst()
        }
        if path.hasPrefix("/") || path == ":memory:" { return path }
        let directory = base.flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL.path
    }
}
