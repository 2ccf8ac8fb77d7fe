import Foundation
import GRDB

/// One model call: an `llm_calls` row.
struct ModelCallRecord: Codable, Sendable, Equatable {
    var id: Int64? = nil
    var runId: Int64?
    var provider: String
    var model: String
    var template: String
    var inputTokens: Int
    var outputTokens: Int
    var costUSD: Double?
    var cached: Bool
    /// What the call was about: the question asked, the document or section summarised.
    var subject: String?
    /// The last user message sent (the passages and the question, the text to summarise).
    var prompt: String?
    var response: String?
    var finishReason: String?
    var durationMs: Int?
    /// When it was made; the store sets it as it records the call.
    var at: String = ""

    enum CodingKeys: String, CodingKey {
        case id, runId = "run_id", provider, model, template, inputTokens = "input_tokens", outputTokens = "output_tokens"
        case costUSD = "cost_usd", cached, subject, prompt, response, finishReason = "finish_reason"
        case durationMs = "duration_ms", at
    }
}

/// One past model call as `lectern logs` lists it.
public struct ModelCallLog: Codable, Sendable, Equatable {
    public var id: Int64
    public var run: Int64?
    public var at: String
    public var provider: String
    public var model: String
    /// The prompt's name and version: `ask/1`, `summary/1`.
    public var template: String
    public var subject: String?
    public var prompt: String?
    public var response: String?
    public var finishReason: String?
    public var inputTokens: Int
    public var outputTokens: Int
    public var costUSD: Double?
    public var cached: Bool
    public var durationMs: Int?
}

extension ModelCallLog {
    init(_ call: ModelCallRecord) {
        self.init(id: call.id ?? 0, run: call.runId, at: call.at, provider: call.provider, model: call.model,
                  template: call.template, subject: call.subject, prompt: call.prompt, response: call.response,
                  finishReason: call.finishReason, inputTokens: call.inputTokens, outputTokens: call.outputTokens,
                  costUSD: call.costUSD, cached: call.cached, durationMs: call.durationMs)
    }
}

/// A stored summary of a document (section nil) or of one of its top-level sections.
public struct StoredSummary: Codable, Sendable, Equatable {
    /// Nil for the whole document.
    public var section: String?
    public var text: String
    public var keyPoints: [String]
    public var provider: String
    public var model: String
    /// The document's content hash when the summary was made: differs once it is re-ingested.
    var contentHash: String
    var createdAt: String
}

extension LibraryStore {
    // MARK: Response cache

    func cachedResponse(key: String) throws -> ChatResponse? {
        try read { db in
            try ModelCacheRecord.fetchOne(db, key: key)?.cachedResponse
        }
    }

    func cacheResponse(key: String, provider: String, template: String, _ response: ChatResponse) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO llm_cache(key, provider, model, template, response, input_tokens, output_tokens, truncated, finish_reason, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET response = excluded.response, input_tokens = excluded.input_tokens,
                    output_tokens = excluded.output_tokens, truncated = excluded.truncated, finish_reason = excluded.finish_reason,
                    created_at = excluded.created_at
                """, arguments: [key, provider, response.model, template, response.text, response.inputTokens,
                                 response.outputTokens, response.truncated, response.finishReason, Self.now()])
        }
    }

    func recordModelCall(_ call: ModelCallRecord) throws {
        try write { db in
            var row = call
            row.id = nil
            row.at = Self.now()
            try row.insert(db)
        }
    }

    /// The last `limit` model calls (all when nil), newest first; `template` keeps one prompt's
    /// calls (`ask/1`, or `ask` for every version).
    public func modelCallLog(limit: Int?, template: String? = nil) throws -> [ModelCallLog] {
        try read { db in
            var sql = "SELECT * FROM llm_calls"
            var arguments: StatementArguments = []
            if let template {
                sql += " WHERE template = ? OR template LIKE ? ESCAPE '\\'"
                arguments += [template, template.replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "/%"]
            }
            sql += " ORDER BY id DESC"
            if let limit {
                sql += " LIMIT ?"
                arguments += [limit]
            }
            return try ModelCallRecord.fetchAll(db, sql: sql, arguments: arguments).map(ModelCallLog.init)
        }
    }

    /// The model calls of one run (or all), oldest first.
    func modelCalls(run: Int64? = nil) throws -> [ModelCallRecord] {
        try read { db in
            let sql = "SELECT * FROM llm_calls" + (run == nil ? "" : " WHERE run_id = ?") + " ORDER BY id"
            return try ModelCallRecord.fetchAll(db, sql: sql, arguments: run.map { [$0] } ?? [])
        }
    }

    // MARK: Summaries

    /// Replaces all summaries of a document in one transaction (document first, then sections in order).
    func replaceSummaries(documentId: Int64, _ summaries: [StoredSummary]) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM summaries WHERE document_id = ?", arguments: [documentId])
            for (ordinal, summary) in summaries.enumerated() {
                try SummaryRecord(documentId: documentId, ordinal: ordinal, summary).insert(db)
            }
        }
    }

    func summaries(documentId: Int64) throws -> [StoredSummary] {
        try read { db in
            try SummaryRecord.filter(Column("document_id") == documentId).order(Column("ordinal")).fetchAll(db).map(\.summary)
        }
    }
}
