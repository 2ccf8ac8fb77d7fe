import Foundation

/// The one place a library's working parts are made from its configuration: the ingestor, the
/// embedder, the language model, the summariser, the curriculum builder, the flashcards and the
/// search session. The command line, `lectern run`, the MCP server and `lectern eval` all ask
/// here, so a setting (a base URL, the run's cancellation, the model's cache) reaches every
/// caller alike instead of each copying the set-up and the copies drifting apart.
public struct LibraryServices: Sendable {
    public let configuration: Configuration
    /// The library, on either backend.
    public let library: Library
    /// Counts and failures of the run the parts work in; nil outside a recorded run.
    public let recorder: RunRecorder?
    /// Checked by every part between units of work (documents, topics, outputs).
    public var cancellation: Cancellation?
    /// One fetcher for everything made here, so the per-host interval holds across ingests.
    public let fetcher: WebFetcher

    public init(configuration: Configuration, store: LibraryStore, recorder: RunRecorder? = nil, cancellation: Cancellation? = nil) {
        self.init(configuration: configuration, library: Library(store), recorder: recorder, cancellation: cancellation)
    }

    public init(configuration: Configuration, library: Library, recorder: RunRecorder? = nil, cancellation: Cancellation? = nil) {
        self.configuration = configuration
        self.library = library
        self.recorder = recorder
        self.cancellation = cancellation
        fetcher = WebFetcher(settings: configuration.http)
    }

    /// The library's embedder: its recorded one, else `requested` or the configured default.
    public func embedder(requested: String? = nil) throws -> any Embedder {
        try EmbedderCatalog.resolve(library: library, configuration: configuration, requested: requested)
    }

    /// An ingestor with the configuration's chunking, web sources (`wikipedia.base_url`,
    /// `ocw.base_url`, `[openstax]`), fetcher and the services' cancellation.
    public func ingestor(embedder: any Embedder, options: ExtractOptions = ExtractOptions(),
                         registry: ReaderRegistry = .standard) -> Ingestor {
        var ingestor = Ingestor(library: library, registry: registry, embedder: embedder, chunkSettings: configuration.chunk, options: options)
        ingestor.fetcher = fetcher
        ingestor.openstax = configuration.openstax
        ingestor.webSources = configuration.webSources
        ingestor.cancellation = cancellation
        return ingestor
    }

    /// The configured language model as the library uses it (answers cached, calls recorded in
    /// the run); nil when none is configured. `useCache` false: ask again (`--no-cache`).
    public func languageModel(useCache: Bool = true) throws -> LibraryModel? {
        guard let model = try LanguageModelCatalog.make(configuration.llm, http: configuration.http) else { return nil }
        return LibraryModel(model, library: library, recorder: recorder, prices: configuration.llm.prices, useCache: useCache)
    }

    /// The configured model's summariser, else the offline one.
    public func summarizer(useCache: Bool = true) throws -> any Summarizer {
        guard let model = try languageModel(useCache: useCache) else { return ExtractiveSummarizer() }
        return ModelSummarizer(model, maxTokens: configuration.llm.maxTokens, temperature: configuration.llm.temperature)
    }

    /// Document summaries written by `summarizer()`, as many at once as `llm.max_concurrency`.
    public func documentSummaries(useCache: Bool = true) throws -> DocumentSummaries {
        DocumentSummaries(library: library, summarizer: try summarizer(useCache: useCache), parallelism: configuration.llm.maxConcurrency)
    }

    /// A curriculum builder with `summarizer()` (the model's name in the build key when it is one).
    public func curriculumBuilder() throws -> CurriculumBuilder {
        let summarizer = try summarizer()
        var builder = CurriculumBuilder(library: library, summarizer: summarizer,
                                        modelName: summarizer is ModelSummarizer ? summarizer.model : nil,
                                        parallelism: configuration.llm.maxConcurrency)
        builder.cancellation = cancellation
        return builder
    }

    /// The library's flashcards, stopping at the services' cancellation.
    public func flashcards() throws -> Flashcards {
        var cards = Flashcards(library: library)
        cards.cancellation = cancellation
        return cards
    }

    /// Cards for `curriculum` (all its topics, or `topics`) from `model` when given (verified,
    /// priced, `llm.max_tokens` an answer, `llm.max_concurrency` topics at once), else offline.
    public func generateCards(curriculum: String, topics: [String] = [], model: LibraryModel?, maxCost: Double? = nil,
                              minQuality: Double = 1) throws -> CardGenerateSummary {
        let cards = try flashcards()
        guard let model else {
            return try cards.generate(curriculum: curriculum, topics: topics, recorder: recorder, minQuality: minQuality)
        }
        return try cards.generate(curriculum: curriculum, topics: topics, recorder: recorder, languageModel: model,
                                  prices: configuration.llm.prices, maxCost: maxCost, maxTokens: configuration.llm.maxTokens,
                                  parallelism: configuration.llm.maxConcurrency, minQuality: minQuality)
    }

    /// A search over the library with the configuration's embedder, loaded when first needed.
    public func searchSession() -> SearchSession {
        SearchSession(library: library, configuration: configuration)
    }
}
