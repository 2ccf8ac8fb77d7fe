/// What a model answered, with what the call cost in tokens.
public struct ChatResponse: Codable, Sendable, Equatable {
    var text: String
    var inputTokens: Int
    var outputTokens: Int
    /// The model that answered, as the provider names it.
    var model: String
    /// True when the answer came from the response cache (no request was sent).
    var cached: Bool
    /// True when the model stopped at `maxTokens`, so the text is cut off.
    var truncated: Bool
    /// Why the model stopped, the same words for every provider: `stop` (it finished), `length`
    /// (`maxTokens` reached), or the provider's own reason; nil when it did not say.
    var finishReason: String?

    init(text: String, inputTokens: Int, outputTokens: Int, model: String, cached: Bool = false, truncated: Bool = false,
         finishReason: String? = nil) {
        self.text = text
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.model = model
        self.cached = cached
        self.truncated = truncated || finishReason == "length"
        self.finishReason = finishReason ?? (truncated ? "length" : nil)
    }
}
