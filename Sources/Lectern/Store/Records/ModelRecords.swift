import Foundation

/// An `llm_cache` row: a model's answer kept by the hash of the request that asked for it.
struct ModelCacheRecord: Codable, Sendable, Equatable {
    var key: String
    var provider: String
    var model: String
    var template: String
    var response: String
    var inputTokens: Int
    var outputTokens: Int
    var truncated: Bool
    var finishReason: String?
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case key, provider, model, template, response, inputTokens = "input_tokens", outputTokens = "output_tokens"
        case truncated, finishReason = "finish_reason", createdAt = "created_at"
    }

    /// The answer as the cache gives it back.
    var cachedResponse: ChatResponse {
        ChatResponse(text: response, inputTokens: inputTokens, outputTokens: outputTokens, model: model, cached: true,
                     truncated: truncated, finishReason: finishReason)
    }
}

/// A `summaries` row: a document's summary (section nil) or one of its top-level sections'.
struct SummaryRecord: Codable, Sendable, Equatable {
    var documentId: Int64
    var section: String?
    var ordinal: Int
    var text: String
    /// A JSON array.
    var keyPoints: [String]
    var provider: String
    var model: String
    var contentHash: String
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case documentId = "document_id", section, ordinal, text, keyPoints = "key_points", provider, model
        case contentHash = "content_hash", createdAt = "created_at"
    }

    init(documentId: Int64, ordinal: Int, _ summary: StoredSummary) {
        self.documentId = documentId
        section = summary.section
        self.ordinal = ordinal
        text = summary.text
        keyPoints = summary.keyPoints
        provider = summary.provider
        model = summary.model
        contentHash = summary.contentHash
        createdAt = summary.createdAt
    }

    var summary: StoredSummary {
        StoredSummary(section: section, text: text, keyPoints: keyPoints, provider: provider, model: model,
                      contentHash: contentHash, createdAt: createdAt)
    }
}
