import Foundation
import GRDB

/// One model call as recorded in `llm_calls`.
struct ModelCallRecord: Codable, Sendable, Equatable {
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
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM llm_cache WHERE key = ?", arguments: [key]) else { return nil }
            return ChatResponse(text: row["response"], inputTokens: row["input_tokens"], outputTokens: row["output_tokens"],
                                model: row["model"], cached: true, truncated: row["truncated"], finishReason: row["finish_reason"])
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
            try db.execute(sql: """
                INSERT INTO llm_calls(run_id, provider, model, template, input_tokens, output_tokens, cost_usd, cached, at,
                                      subject, prompt, response, finish_reason, duration_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [call.runId, call.provider, call.model, call.template, call.inputTokens, call.outputTokens,
                                 call.costUSD, call.cached, Self.now(), call.subject, call.prompt, call.response, call.finishReason,
                                 call.durationMs])
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
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                ModelCallLog(id: row["id"], run: row["run_id"], at: row["at"], provider: row["provider"], model: row["model"],
                             template: row["template"], subject: row["subject"], prompt: row["prompt"], response: row["response"],
                             finishReason: row["finish_reason"], inputTokens: row["input_tokens"], outputTokens: row["output_tokens"],
                             costUSD: row["cost_usd"], cached: row["cached"], durationMs: row["duration_ms"])
            }
        }
    }

    /// The model calls of one run (or all), oldest first.
    func modelCalls(run: Int64? = nil) throws -> [ModelCallRecord] {
        try read { db in
            let sql = "SELECT * FROM llm_calls" + (run == nil ? "" : " WHERE run_id = ?") + " ORDER BY id"
            return try Row.fetchAll(db, sql: sql, arguments: run.map { [$0] } ?? []).map { row in
                ModelCallRecord(runId: row["run_id"], provider: row["provider"], model: row["model"], template: row["template"],
                                inputTokens: row["input_tokens"], outputTokens: row["output_tokens"], costUSD: row["cost_usd"],
                                cached: row["cached"])
            }
        }
    }

    // MARK: Summaries

    /// Replaces all summaries of a document in one transaction (document first, then sections in order).
    func replaceSummaries(documentId: Int64, _ summaries: [StoredSummary]) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM summaries WHERE document_id = ?", arguments: [documentId])
            for (ordinal, summary) in summaries.enumerated() {
                try db.execute(sql: """
                    INSERT INTO summaries(document_id, section, ordinal, text, key_points, provider, model, content_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [documentId, summary.section, ordinal, summary.text, Self.json(summary.keyPoints),
                                     summary.provider, summary.model, summary.contentHash, summary.createdAt])
            }
        }
    }

    func summaries(documentId: Int64) throws -> [StoredSummary] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM summaries WHERE document_id = ? ORDER BY ordinal", arguments: [documentId]).map { row in
                StoredSummary(section: row["section"], text: row["text"],
                              keyPoints: Self.decode([String].self, row["key_points"]) ?? [],
                              provider: row["provider"], model: row["model"], contentHash: row["content_hash"],
                              createdAt: row["created_at"])
            }
        }
    }
}
