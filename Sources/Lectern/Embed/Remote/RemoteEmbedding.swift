import Foundation

/// Where a remote embedder is and how it is reached (`[embedding]` in configuration). The API
/// key is never configured itself: `api_key_env` names the environment variable holding it.
public struct RemoteEmbeddingSettings: Sendable, Equatable {
    /// Base URL: `https://api.openai.com/v1` (OpenAI-compatible) or `http://127.0.0.1:11434` (Ollama) by default.
    public var url: String?
    /// Name of the environment variable with the API key (sent as a bearer token).
    public var apiKeyEnv: String?
    /// The vector size, when known; otherwise one probe request finds it.
    public var dimensions: Int?
    /// Texts per request.
    public var batch: Int = 64

    public init(url: String? = nil, apiKeyEnv: String? = nil, dimensions: Int? = nil) {
        self.url = url
        self.apiKeyEnv = apiKeyEnv
        self.dimensions = dimensions
    }

    /// The key from the named variable; a named but unset variable is an error naming it
    /// (never its value).
    func apiKey(environment: [String: String]) throws -> String? {
        guard let name = apiKeyEnv, !name.isEmpty else { return nil }
        guard ConfigType.isVariableName(name) else {
            // A key pasted where its variable's name belongs: refused without repeating it.
            throw LecternError(.configuration, "embedding.api_key_env", "must be the NAME of an environment variable (like OPENAI_API_KEY), not a key")
        }
        guard let key = environment[name], !key.isEmpty else {
            throw LecternError(.configuration, "embedding.api_key_env", "the environment variable \(name) is not set (it should hold the API key)")
        }
        return key
    }
}

/// What OpenAI-compatible and Ollama embedders share: one JSON POST per batch, errors as one
/// line without secrets, vectors checked and L2-normalised.
struct RemoteEmbeddingCall: Sendable {
    let client: HTTPClient
    let endpoint: String
    let apiKey: String?

    /// POSTs `body` and returns the decoded JSON object, or throws the server's own message.
    func post(_ body: [String: Any]) throws -> [String: Any] {
        var headers: [String: String] = ["Accept": "application/json"]
        if let apiKey { headers["Authorization"] = "Bearer " + apiKey }
        let data = try JSONSerialization.data(withJSONObject: body)
        let response = try client.send(.json(endpoint, body: data, headers: headers))
        let json = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        guard response.isSuccess else {
            let message = Self.serverMessage(json) ?? String(response.text.prefix(200))
            throw LecternError(.http, Redaction.url(endpoint), secretFree("HTTP \(response.statusLine): \(message)"))
        }
        guard let json else {
            throw LecternError(.invalidInput, Redaction.url(endpoint), "the embedding server answered something that is not a JSON object")
        }
        return json
    }

    /// `{"error": {"message": …}}` (OpenAI, llama.cpp) or `{"error": "…"}` (Ollama).
    static func serverMessage(_ json: [String: Any]?) -> String? {
        if let error = json?["error"] as? [String: Any], let message = error["message"] as? String { return message }
        return json?["error"] as? String
    }

    /// `text` with the key, any partial echo of it, and the login of the URL, replaced by ***.
    func secretFree(_ text: String) -> String {
        Redaction.text(Redaction.text(text, hidingKey: apiKey), hiding: Redaction.credentials(in: endpoint))
    }

    /// Checks one vector per text, all of `dimension` (when known) numbers, and normalises them.
    func vectors(_ raw: [Any], expected: Int, dimension: Int?) throws -> [[Float]] {
        guard raw.count == expected else {
            throw LecternError(.invalidInput, Redaction.url(endpoint), "the embedding server returned \(raw.count) vectors for \(expected) texts")
        }
        return try raw.map { item in
            guard let numbers = item as? [Any] else {
                throw LecternError(.invalidInput, Redaction.url(endpoint), "an embedding is not a list of numbers")
            }
            let vector = try numbers.map { value -> Float in
                guard let number = value as? NSNumber else {
                    throw LecternError(.invalidInput, Redaction.url(endpoint), "an embedding is not a list of numbers")
                }
                return number.floatValue
            }
            if let dimension, vector.count != dimension {
                throw LecternError(.embedderMismatch, Redaction.url(endpoint), "the server returned \(vector.count)-dimensional vectors, expected \(dimension) (check embedding.dimensions and the model)")
            }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? vector.map { $0 / norm } : vector
        }
    }
}
