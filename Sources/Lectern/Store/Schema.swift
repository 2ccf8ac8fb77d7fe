import GRDB

/// The store's history: named, append-only migrations. Later issues append theirs.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-foundation") { db in
            try db.execute(sql: """
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE sources (
                    id INTEGER PRIMARY KEY,
                    uri TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE documents (
                    id INTEGER PRIMARY KEY,
                    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
                    uri TEXT NOT NULL UNIQUE,
                    short_id TEXT NOT NULL,
                    path TEXT,
                    type TEXT NOT NULL,
                    extractor TEXT NOT NULL,
                    extractor_version INTEGER NOT NULL,
                    title TEXT NOT NULL,
                    content_hash TEXT NOT NULL,
                    skip_key TEXT NOT NULL,
                    metadata TEXT NOT NULL DEFAULT '{}',
                    warnings TEXT NOT NULL DEFAULT '[]',
                    block_count INTEGER NOT NULL DEFAULT 0,
                    passage_count INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE INDEX documents_source ON documents(source_id);
                CREATE INDEX documents_short_id ON documents(short_id);
                CREATE TABLE blocks (
                    id INTEGER PRIMARY KEY,
                    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    text TEXT NOT NULL,
                    level INTEGER,
                    section_path TEXT NOT NULL,
                    page INTEGER,
                    time_start REAL,
                    time_end REAL,
                    speaker TEXT,
                    char_offset INTEGER,
                    attributes TEXT
                );
                CREATE INDEX blocks_document ON blocks(document_id, ordinal);
                CREATE TABLE passages (
                    id INTEGER PRIMARY KEY,
                    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    section_path TEXT NOT NULL,
                    section TEXT NOT NULL,
                    page_start INTEGER,
                    page_end INTEGER,
                    time_start REAL,
                    time_end REAL,
                    speaker TEXT,
                    char_start INTEGER,
                    char_end INTEGER,
                    token_count INTEGER NOT NULL
                );
                CREATE INDEX passages_document ON passages(document_id, ordinal);
                CREATE VIRTUAL TABLE passages_fts USING fts5(
                    text, section,
                    content='passages', content_rowid='id',
                    tokenize='porter unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER passages_fts_insert AFTER INSERT ON passages BEGIN
                    INSERT INTO passages_fts(rowid, text, section) VALUES (new.id, new.text, new.section);
                END;
                CREATE TRIGGER passages_fts_delete AFTER DELETE ON passages BEGIN
                    INSERT INTO passages_fts(passages_fts, rowid, text, section) VALUES ('delete', old.id, old.text, old.section);
                END;
                CREATE TABLE vector_blocks (
                    id INTEGER PRIMARY KEY,
                    embedder TEXT NOT NULL,
                    dimension INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    passage_ids BLOB NOT NULL,
                    vectors BLOB NOT NULL
                );
                CREATE INDEX vector_blocks_embedder ON vector_blocks(embedder);
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    command TEXT NOT NULL,
                    arguments TEXT NOT NULL,
                    started_at TEXT NOT NULL,
                    ended_at TEXT,
                    status TEXT NOT NULL,
                    counts TEXT NOT NULL DEFAULT '{}',
                    pid INTEGER
                );
                CREATE TABLE run_failures (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    input TEXT NOT NULL,
                    stage TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    severity TEXT NOT NULL DEFAULT 'error',
                    at TEXT NOT NULL
                );
                CREATE INDEX run_failures_run ON run_failures(run_id);
                """)
        }
        migrator.registerMigration("v2-passage-timeline") { db in
            // [[offset, seconds], …] of a transcript passage's timed sentences.
            try db.execute(sql: "ALTER TABLE passages ADD COLUMN timeline TEXT")
        }
        migrator.registerMigration("v2-web-cache") { db in
            // What a server said about each URL last time, for conditional GET (304 = unchanged).
            try db.execute(sql: """
                CREATE TABLE fetch_cache (
                    url TEXT PRIMARY KEY NOT NULL,
                    etag TEXT,
                    last_modified TEXT,
                    content_type TEXT,
                    content_hash TEXT,
                    fetched_at TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v3-llm-cache") { db in
            // Model answers by request hash (a re-run costs nothing), every call with its
            // tokens and cost, and the summaries made from documents.
            try db.execute(sql: """
                CREATE TABLE llm_cache (
                    key TEXT PRIMARY KEY NOT NULL,
                    provider TEXT NOT NULL,
                    model TEXT NOT NULL,
                    template TEXT NOT NULL,
                    response TEXT NOT NULL,
                    input_tokens INTEGER NOT NULL,
                    output_tokens INTEGER NOT NULL,
                    truncated INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL
                );
                CREATE TABLE llm_calls (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
                    provider TEXT NOT NULL,
                    model TEXT NOT NULL,
                    template TEXT NOT NULL,
                    input_tokens INTEGER NOT NULL,
                    output_tokens INTEGER NOT NULL,
                    cost_usd REAL,
                    cached INTEGER NOT NULL,
                    at TEXT NOT NULL
                );
                CREATE INDEX llm_calls_run ON llm_calls(run_id);
                CREATE TABLE summaries (
                    id INTEGER PRIMARY KEY,
                    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    section TEXT,
                    ordinal INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    key_points TEXT NOT NULL DEFAULT '[]',
                    provider TEXT NOT NULL,
                    model TEXT NOT NULL,
                    content_hash TEXT NOT NULL,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX summaries_document ON summaries(document_id, ordinal);
                """)
        }
        migrator.registerMigration("v4-run-process-start") { db in
            // With the pid, the process's start time names one process: a reused pid is not
            // taken for the run's own, still running, process.
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN process_start INTEGER")
        }
        return migrator
    }
}
