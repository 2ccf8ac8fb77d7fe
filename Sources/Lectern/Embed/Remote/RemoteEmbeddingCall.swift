import Foundation

/// How a remote embedder talks to its server, whichever the API: the texts sent in batches,
/// one JSON POST each, errors as one line without secrets, vectors checked and L2-normalised.
struct RemoteEmbeddingCall: Sendable {
    let client: HTTPClient
    let endpoint: String
    let apiKey: String?
    let model: String
    /// Texts per request.
    let batch: Int
    let api: RemoteEmbeddingAPI

    init(baseURL: String, model: String, settings: RemoteEmbeddingSettings, http: HTTPSettings,
         environment: [String: String], api: RemoteEmbeddingAPI) throws {
        client = HTTPClient(settings: http)
        endpoint = EndpointURL.join(baseURL, api.path)
        apiKey = try settings.apiKey(environment: environment)
        self.model = model
        batch = max(1, settings.batch)
        self.api = api
    }

    /// `<api prefix>:<model>`, with the configured vector size or, without one, the size of the
    /// answer to one probe request.
    func info(dimension: Int?) throws -> EmbedderInfo {
        let dimension = try dimension ?? request(["dimension probe"], dimension: nil)[0].count
        return EmbedderInfo(name: api.prefix + ":" + model, model: model, dimension: dimension, version: 1)
    }

    /// One vector a text, in order, asked for `batch` texts at a time.
    func embed(_ texts: [String], dimension: Int) throws -> [[Float]] {
        var vectors: [[Float]] = []
        for start in stride(from: 0, to: texts.count, by: batch) {
            vectors += try request(Array(texts[start..<min(start + batch, texts.count)]), dimension: dimension)
        }
        return vectors
    }

    func request(_ texts: [String], dimension: Int?) throws -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        let answer = try post(api.body(model, texts))
        return try vectors(api.vectors(answer, endpoint), expected: texts.count, dimension: dimension)
    }

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
