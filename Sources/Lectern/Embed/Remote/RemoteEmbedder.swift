import Foundation

/// An embedder behind an HTTP API, `api` saying which: an OpenAI-compatible server
/// (`openai:<model>`) or Ollama (`ollama:<model>`).
struct RemoteEmbedder: Embedder {
    let info: EmbedderInfo
    /// The server's tokenizer is unknown here; the estimate errs on the long side.
    let tokenCounter: any TokenCounter = ApproximateTokenCounter()
    let call: RemoteEmbeddingCall

    init(_ api: RemoteEmbeddingAPI, model: String, settings: RemoteEmbeddingSettings, http: HTTPSettings = HTTPSettings(),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let base = (settings.url ?? api.defaultURL).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var settings = settings
        // A public API that always needs a key (OpenAI's): its usual variable there, and only there.
        if settings.apiKeyEnv == nil, base == api.defaultURL { settings.apiKeyEnv = api.defaultKeyVariable }
        call = try RemoteEmbeddingCall(baseURL: base, model: model, settings: settings, http: http, environment: environment, api: api)
        info = try call.info(dimension: settings.dimensions)
    }

    func embed(_ texts: [String]) throws -> [[Float]] {
        try call.embed(texts, dimension: info.dimension)
    }
}
