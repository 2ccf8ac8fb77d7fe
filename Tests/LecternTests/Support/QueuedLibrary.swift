import Foundation
import XCTest
@testable import Lectern

/// What the tests of the work queue compare between a library the workers filled and one a
/// single `lectern run` filled: every document with its passages' texts and vectors (float32,
/// as stored), BM25's totals, and the library's curricula as `lectern curriculum export`
/// writes them, build times masked.
enum QueuedLibrary {
    /// Each document by URI: its content hash, passage count, and a digest of its passages'
    /// ordinals, texts and vectors in order.
    static func documents(_ url: String) throws -> [String: String] {
        let rows = try PostgresConnection(url: url).query("""
            select d.uri, d.content_hash || ' ' || d.passage_count || ' ' || count(p.id) || ' '
                || coalesce(md5(string_agg(p.ordinal || '|' || p.text || '|' || p.exact::text || '|' || p.keywords::text, '§' order by p.ordinal)), '-')
            from documents d left join passages p on p.document_id = d.id group by d.id, d.uri, d.content_hash, d.passage_count
            """).rows
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] ?? "", $0[1] ?? "") })
    }

    /// Counts that a document stored twice, or a passage without its vector, would change.
    static func totals(_ url: String) throws -> [String: String] {
        let connection = try PostgresConnection(url: url)
        var found: [String: String] = [:]
        for (name, sql) in [
            ("documents", "select count(*) from documents"),
            ("sources", "select count(*) from sources"),
            ("passages", "select count(*) from passages"),
            ("without vectors", "select count(*) from passages where embedding is null or exact is null"),
            ("doubled passages", "select count(*) from (select 1 from passages group by document_id, ordinal having count(*) > 1) d"),
            ("keyword totals", "select passages || ' ' || tokens from keyword_totals"),
            ("embedding cache", "select count(*) from embedding_cache"),
        ] {
            found[name] = try connection.query(sql).scalar
        }
        return found
    }

    /// `lectern curriculum export NAME --format FORMAT` on `url`, its build times masked
    /// (UMCF lifecycle.created/modified and version.date, createdAt/modifiedAt).
    static func export(_ name: String, format: String, url: String, in folder: URL) throws -> String {
        let result = try runLectern(["curriculum", "export", name, "--format", format], in: folder, environment: ["LECTERN_DB": url])
        XCTAssertEqual(result.status, 0, result.stderr)
        return masked(result.stdout)
    }

    static func masked(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d{4}-\d{2}-\d{2}[T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?"#, with: "TIME", options: .regularExpression)
    }

    /// The jobs of run `run` by state.
    static func jobStates(_ url: String, run: Int64 = 1) throws -> [String: Int] {
        let rows = try PostgresConnection(url: url).query("select state, count(*) from queue_jobs where run_id = $1 group by state", [String(run)]).rows
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] ?? "", Int($0[1] ?? "0") ?? 0) })
    }
}
