import Foundation

/// `reembed` on a PostgreSQL library: the new embedder's vectors wait in `reembed_vectors` until
/// every passage has one; the switch moves them into the passages, drops the old HNSW index and
/// builds the new embedder's, in one transaction.
extension PostgresLibrary {
    func setSetting(_ key: String, _ value: String?) throws {
        try session {
            if let value {
                try connection.query("""
                    insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value
                    """, [key, value])
            } else {
                try connection.query("delete from settings where key = $1", [key])
            }
        }
    }

    func passageIdsWithVectors(_ embedder: EmbedderInfo) throws -> Set<Int64> {
        try session {
            let rows = try recordedEmbedder() == embedder
                ? connection.query("select id from passages where exact is not null")
                : connection.query("select passage_id from reembed_vectors where embedder = $1", [embedder.key])
            return Set(rows.rows.compactMap { $0[0].flatMap { Int64($0) } })
        }
    }

    func passagesMissingVectors(_ embedder: EmbedderInfo, limit: Int) throws -> [(id: Int64, text: String)] {
        try session {
            let missing = try recordedEmbedder() == embedder
                ? "p.exact is null"
                : "not exists (select 1 from reembed_vectors r where r.passage_id = p.id and r.embedder = $2)"
            // The text as the ingest embedded it: with its contextual header.
            return try connection.records(PassageTextRecord.self, """
                select p.id, p.text, p.section_path::json as section_path, d.title
                from passages p join documents d on d.id = p.document_id where \(missing) order by p.id limit $1
                """, [String(limit)] + (missing.hasPrefix("not") ? [embedder.key] : [])).map {
                (id: $0.id, text: ContextualHeader.embedded($0.text, title: $0.title, sectionPath: $0.sectionPath))
            }
        }
    }

    /// One transaction per call; passages deleted meanwhile get no vector.
    func addVectors(ids: [Int64], vectors: [[Float]], embedder: EmbedderInfo) throws {
        precondition(ids.count == vectors.count, "one vector per passage")
        guard !ids.isEmpty else { return }
        try transaction {
            try connection.query("""
                insert into reembed_vectors (passage_id, embedder, exact)
                select t.id, $1, t.v::vector from unnest($2::bigint[], $3::text[]) as t(id, v)
                where exists (select 1 from passages p where p.id = t.id)
                on conflict (passage_id) do update set embedder = excluded.embedder, exact = excluded.exact
                """, [embedder.key, Self.bigintArray(ids), Self.textArray(vectors.map(Self.vectorLiteral))])
        }
    }

    func switchEmbedder(to embedder: EmbedderInfo) throws {
        try transaction {
            // No first writer records an embedder meanwhile (`recordEmbedder` takes this lock).
            try connection.query("select pg_advisory_xact_lock($1)", [String(PostgresSchema.migrationLock)])
            if try recordedEmbedder() != embedder {
                let missing = try connection.query("""
                    select count(*) from passages p
                    where not exists (select 1 from reembed_vectors r where r.passage_id = p.id and r.embedder = $1)
                    """, [embedder.key]).scalar ?? "0"
                guard missing == "0" else {
                    throw LecternError(.embedderMismatch, embedder.name, "\(missing) passages still lack vectors; run reembed again")
                }
                try connection.query("drop index if exists passages_embedding")
                try connection.query("""
                    update passages p set exact = r.exact, embedding = r.exact::halfvec
                    from reembed_vectors r where r.passage_id = p.id and r.embedder = $1
                    """, [embedder.key])
                try connection.query(Self.embeddingIndex(dimension: embedder.dimension))
            }
            try connection.query("delete from reembed_vectors")
            // Every document's skip key now names the new embedder (its passage part is kept).
            try connection.query("update documents set embedder_key = $1", [embedder.key])
            try setSetting("embedder", LibraryStore.json(embedder))
            try setSetting("reembed_target", nil)
        }
    }
}
