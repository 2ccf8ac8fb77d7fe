import Foundation

/// Summaries and the language model's answers in a PostgreSQL library, as the SQLite library
/// keeps them (`LibraryStore+LLM`): a re-run of `summarize` or `ask` finds the model's answer
/// in `llm_cache` and costs nothing, and every call is recorded in `llm_calls`.
extension PostgresLibrary {
    func replaceSummaries(documentId: Int64, _ summaries: [StoredSummary]) throws {
        try transaction {
            try connection.query("delete from summaries where document_id = $1", [String(documentId)])
            try insert(summaries.enumerated().map { SummaryRecord(documentId: documentId, ordinal: $0, $1) }, into: "summaries", columns: [
                "document_id", "section", "ordinal", "text", "key_points", "provider", "model", "content_hash", "created_at",
            ])
        }
    }

    func summaries(documentId: Int64) throws -> [StoredSummary] {
        try session {
            try connection.records(SummaryRecord.self, """
                select document_id, section, ordinal, text, key_points::json as key_points, provider, model, content_hash, created_at
                from summaries where document_id = $1 order by ordinal
                """, [String(documentId)]).map(\.summary)
        }
    }

    func cachedResponse(key: String) throws -> ChatResponse? {
        try session { try connection.records(ModelCacheRecord.self, "select * from llm_cache where key = $1", [key]).first?.cachedResponse }
    }

    func cacheResponse(key: String, provider: String, template: String, _ response: ChatResponse) throws {
        try session {
            _ = try connection.query("""
                insert into llm_cache (key, provider, model, template, response, input_tokens, output_tokens, truncated, finish_reason, created_at)
                values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                on conflict (key) do update set response = excluded.response, input_tokens = excluded.input_tokens,
                    output_tokens = excluded.output_tokens, truncated = excluded.truncated, finish_reason = excluded.finish_reason,
                    created_at = excluded.created_at
                """, [key, provider, response.model, template, response.text, String(response.inputTokens), String(response.outputTokens),
                      String(response.truncated), response.finishReason, LibraryStore.now()])
        }
    }

    func recordModelCall(_ call: ModelCallRecord) throws {
        var row = call
        row.id = nil
        row.at = LibraryStore.now()
        _ = try session {
            try insert([row], into: "llm_calls", columns: [
                "run_id", "provider", "model", "template", "input_tokens", "output_tokens", "cost_usd", "cached", "at", "subject",
                "prompt", "response", "finish_reason", "duration_ms",
            ])
        }
    }
}
