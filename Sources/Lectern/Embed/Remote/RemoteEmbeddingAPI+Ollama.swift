extension RemoteEmbeddingAPI {
    /// Ollama's native `/api/embed` (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings):
    /// `{"model", "input": "text" | ["texts"]}` → `{"embeddings": [[...]]}`; one text goes as a
    /// string, as in the API reference's first example.
    static let ollama = RemoteEmbeddingAPI(
        prefix: "ollama", defaultURL: "http://127.0.0.1:11434", path: "/api/embed",
        body: { model, texts in ["model": model, "input": texts.count == 1 ? texts[0] : texts] },
        vectors: { answer, endpoint in
            guard let embeddings = answer["embeddings"] as? [Any] else {
                throw LecternError(.invalidInput, Redaction.url(endpoint), "the answer has no \"embeddings\" list")
            }
            return embeddings
        })
}
