import Foundation

/// The PostgreSQL library's tables, grown by named, append-only migrations as the SQLite
/// library's are (`Schema`): each applied in one transaction and recorded in
/// `lectern_migrations`, under a transaction-level advisory lock so that several processes
/// opening a new library at once apply each migration once.
enum PostgresSchema {
    /// Advisory lock keys of a library database: 'LCTN' and a number.
    static let migrationLock: Int64 = 0x4C43_544E_0000_0001
    static let writerLock: Int64 = 0x4C43_544E_0000_0002

    /// (name, statements), in the order they were written; never edited once released.
    static let migrations: [(name: String, statements: [String])] = [
        ("v1-foundation", [
            "create extension if not exists vector",
            "create table settings (key text primary key, value text not null)",
            """
            create table sources (id bigserial primary key, uri text not null unique, kind text not null,
                created_at text not null, updated_at text not null)
            """,
            """
            create table documents (id bigserial primary key, source_id bigint not null references sources(id),
                uri text not null unique, short_id text not null, path text, type text not null, extractor text not null,
                extractor_version integer not null, title text not null, content_hash text not null, passage_key text,
                embedder_key text, metadata text, warnings text, block_count integer not null,
                passage_count integer not null, created_at text not null, updated_at text not null)
            """,
            """
            create table blocks (id bigserial primary key, document_id bigint not null references documents(id) on delete cascade,
                ordinal integer not null, kind text not null, text text not null, level integer, section_path text,
                page integer, time_start double precision, time_end double precision, speaker text, char_offset integer,
                attributes text, page_label text)
            """,
            "create index blocks_document on blocks (document_id, ordinal)",
            // keywords: Lectern's own folded, Porter-stemmed words (PorterStemmer, as FTS5's
            // porter tokenizer makes them) with the text's positions weighted A and the section
            // header's B, so BM25 can weigh the columns as FTS5 does; keyword_length is both
            // columns' token count (FTS5's row size). embedding: half precision for the HNSW
            // index (an expression index per dimension, made when the embedder is recorded);
            // exact: float32, what the candidates are re-ranked by.
            """
            create table passages (id bigserial primary key, document_id bigint not null references documents(id) on delete cascade,
                ordinal integer not null, text text not null, kind text not null, section_path text, section text,
                page_start integer, page_end integer, time_start double precision, time_end double precision, speaker text,
                char_start integer, char_end integer, token_count integer not null, timeline text, page_label text,
                keywords tsvector not null, keyword_length integer not null, embedding halfvec, exact vector)
            """,
            "create index passages_document on passages (document_id, ordinal)",
            "create index passages_keywords on passages using gin (keywords)",
            // BM25's N and average row length, kept as passages are written and removed.
            "create table keyword_totals (id integer primary key check (id = 1), passages bigint not null, tokens bigint not null)",
            "insert into keyword_totals values (1, 0, 0)",
        ]),
        // What ingest keeps beside the documents, as the SQLite library's tables of the same
        // names: vectors made for a document not stored yet (float32, as written), web
        // sources' validators, and the runs with their failed inputs; and reembed's vectors.
        ("v2-ingest-caches-runs", [
            """
            create table embedding_cache (embedder text not null, text_hash text not null, vector real[] not null,
                created_at text not null, primary key (embedder, text_hash))
            """,
            """
            create table fetch_cache (url text primary key, etag text, last_modified text, content_type text,
                content_hash text, fetched_at text not null)
            """,
            """
            create table runs (id bigserial primary key, command text not null, arguments text not null,
                started_at text not null, ended_at text, status text not null, counts text not null,
                pid integer, process_start bigint)
            """,
            """
            create table run_failures (id bigserial primary key, run_id bigint not null references runs(id) on delete cascade,
                input text not null, stage text not null, reason text not null, severity text not null, at text not null)
            """,
            "create index run_failures_run on run_failures (run_id, id)",
            // `reembed`: vectors of the embedder a library switches to, written beside the
            // recorded ones until every passage has one (a stopped reembed keeps them).
            """
            create table reembed_vectors (passage_id bigint primary key references passages(id) on delete cascade,
                embedder text not null, exact vector not null)
            """,
        ]),
        // The curriculum wing: curricula, topics, cards, summaries, the model's answers.
        curriculaCards,
        // The files a run writes (decks, exports) and what they were made from, as the SQLite
        // library's `v9-run-outputs`: the newest row of a path tells the next run whether the
        // file is up to date; a curriculum's cards basis, whether its cards are.
        ("v4-run-outputs", [
            """
            create table run_outputs (id bigserial primary key, run_id bigint references runs(id) on delete cascade,
                path text not null, format text, content_hash text, build_key text, cards_basis text, written boolean not null)
            """,
            "create index run_outputs_run on run_outputs (run_id)",
            "create index run_outputs_path on run_outputs (path, id)",
            "create table card_bases (curriculum text primary key, build_key text not null)",
        ]),
        // The work queue: queued runs and their jobs (`lectern run --queue`, `lectern worker`).
        queue,
        // What a search reads of each row and each hit, found without reading what it does not
        // need. A passage's keywords stay in its row (compressed) and its vectors move out
        // first: left to itself the server moved the tsvector, the row's largest compressible
        // value, into TOAST, and a keyword search read three TOAST pages for each row it
        // matched (at 10k padded passages, 0.15 s of a 0.73 s query were the filter's reads);
        // rows written before keep their place until rewritten. And the headings and cues that
        // carry attributes (a hit's link) by document: the lookup read every block of the
        // hit's document, 0.7 ms a hit in a 1,000-section document.
        ("v12-pg-search-reads", [
            "alter table passages alter column keywords set storage main",
            "create index blocks_heading_facts on blocks (document_id) where kind = 'heading' and attributes is not null",
            "create index blocks_cue_facts on blocks (document_id, section_path) where kind = 'cue' and attributes is not null",
        ]),
        // The SQLite library's keyword postings (its `v13-kwi-keyword-postings`,
        // `PostgresKeywordPostings`): for each term and document the passages holding it with
        // their counts in the text and the section, each document's row sizes, each term's
        // passages, and the tokens of them all, by FTS5's own tokenizer; a query of words is
        // ranked from them by the SQLite library's scorer. By document too: a document's rows
        // are removed by it. Built from the passages (`builds`).
        ("v13-pg-keyword-postings", [
            """
            create table keyword_postings (term text not null, document_id bigint not null, passages integer not null,
                data bytea not null, primary key (term, document_id))
            """,
            "create index keyword_postings_document on keyword_postings (document_id)",
            "create table keyword_terms (term text primary key, passages bigint not null)",
            "create table keyword_sizes (document_id bigint primary key, tokens bigint not null, data bytea not null)",
            "alter table keyword_totals add column postings_tokens bigint not null default 0",
        ]),
        // The HNSW index built again as `PostgresLibrary.embeddingIndex` now makes it (twice the
        // default ef_construction), in a library that has one: its dimension is the recorded
        // embedder's. A large library's rebuild takes as long as its first build did.
        ("v14-pg-hnsw-ef-construction", [
            """
            do $$
            declare dimension integer;
            begin
                if to_regclass('passages_embedding') is not null then
                    select (value::json ->> 'dimension')::integer into dimension from settings where key = 'embedder';
                    drop index passages_embedding;
                    if dimension is not null then
                        execute format('create index passages_embedding on passages using hnsw ((embedding::halfvec(%s)) halfvec_cosine_ops) '
                                       'with (m = 16, ef_construction = 128) where vector_dims(embedding) = %s', dimension, dimension);
                    end if;
                end if;
            end
            $$
            """,
        ]),
        // Which objectives the build made because a topic's unit lent it none
        // (`LearningObjective.standIn`): a rebuild that keeps the topic makes them again.
        ("v15-pg-objective-stand-in", ["alter table topic_objectives add column stand_in boolean"]),
        // The keyword postings in term order: a keyword search reads every row of its words,
        // and rows written a document at a time put each on a page of its own (on the 1M real
        // library, nine words' 27k rows read 26,863 pages: 183-324 ms; in term order 18-21 ms).
        // The primary key is marked the table's order, so `lectern migrate` orders a copy alike.
        ("v16-pg-keyword-postings-in-term-order", [
            "alter table keyword_postings cluster on keyword_postings_pkey",
            "cluster keyword_postings",
        ]),
    ]

    /// What a migration makes from the rows a library holds, after its statements and in its
    /// transaction, by migration name.
    static let builds: [String: @Sendable (PostgresConnection) throws -> Void] = [
        "v13-pg-keyword-postings": PostgresKeywordPostings.addAll,
    ]

    /// Applies the migrations `connection`'s database lacks, each in one transaction. A
    /// library that has them all (every open but the first) is told by two statements, not
    /// five per migration: the lock is taken only when there is something to apply, and a
    /// migration another process applied meanwhile is seen under it and skipped.
    static func migrate(_ connection: PostgresConnection) throws {
        if try connection.query("select to_regclass('lectern_migrations') is not null").scalar == "t" {
            let applied = Set(try connection.query("select identifier from lectern_migrations").rows.compactMap { $0[0] })
            if migrations.allSatisfy({ applied.contains($0.name) }) { return }
        }
        for migration in migrations {
            try connection.transaction {
                try connection.query("select pg_advisory_xact_lock($1)", [String(migrationLock)])
                try connection.query("create table if not exists lectern_migrations (identifier text primary key, applied_at timestamptz not null default now())")
                let applied = try connection.query("select 1 from lectern_migrations where identifier = $1", [migration.name])
                guard applied.count == 0 else { return }
                for statement in migration.statements { try connection.query(statement) }
                try builds[migration.name]?(connection)
                try connection.query("insert into lectern_migrations (identifier) values ($1)", [migration.name])
            }
        }
    }

    /// The names of the migrations applied, in order.
    static func applied(_ connection: PostgresConnection) throws -> [String] {
        try connection.query("select identifier from lectern_migrations order by applied_at, identifier").rows.compactMap { $0[0] }
    }
}
