import Foundation

/// Where a remote embedder is and how it is reached (`[embedding]` in configuration). The API
/// key is never configured itself: `api_key_env` names the environment variable holding it.
struct RemoteEmbeddingSettings: Sendable, Equatable {
    /// Base URL: `https://api.openai.com/v1` (OpenAI-compatible) or `http://127.0.0.1:11434` (Ollama) by default.
    var url: String?
    /// Name of the environment variable with the API key (sent as a bearer token).
    var apiKeyEnv: String?
    /// The vector size, when known; otherwise one probe request finds it.
    var dimensions: Int?
    /// Texts per request.
    var batch: Int = 64

    init(url: String? = nil, apiKeyEnv: String? = nil, dimensions: Int? = nil) {
        self.url = url
        self.apiKeyEnv = apiKeyEnv
        self.dimensions = dimensions
    }

    /// The key from the named variable; a named but unset variable is an error naming it
    /// (never its value).
    func apiKey(environment: [String: String]) throws -> String? {
        guard let name = apiKeyEnv, !name.isEmpty else { return nil }
        guard EnvironmentVariable.isName(name) else {
            // A key pasted where its variable's name belongs: refused without repeating it.
            throw LecternError(.configuration, "embedding.api_key_env", "must be the NAME of an environment variable (like OPENAI_API_KEY), not a key")
        }
        guard let key = environment[name], !key.isEmpty else {
            throw LecternError(.configuration, "embedding.api_key_env", "the environment variable \(name) is not set (it should hold the API key)")
        }
        return key
    }
}
