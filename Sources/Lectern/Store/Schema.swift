import Foundation
import GRDB

/// One named change to the schema.
struct Migration: Sendable {
    let identifier: String
    let apply: @Sendable (Database) throws -> Void

    init(_ identifier: String, _ apply: @escaping @Sendable (Database) throws -> Void) {
        self.identifier = identifier
        self.apply = apply
    }
}

/// The store's history: named, append-only migrations, and what marks a file as a library.
///
/// A library records the migrations it has in `grdb_migrations` (the table GRDB's migrator
/// kept, so that libraries it made are recognised). They are applied here rather than by
/// GRDB's `DatabaseMigrator`, which reads that table outside a transaction and commits each
/// migration on its own: two processes opening a new library at once both ran the first one.
/// `LibraryStore` applies them all, after checking what the file holds, in ONE exclusive
/// transaction.
enum Schema {
    /// In the file header (`PRAGMA application_id`): "LCTN".
    static let applicationId: Int32 = 0x4C43_544E
    static let migrationTable = "grdb_migrations"

    static let migrations: [Migration] = [
        Migration("v1-foundation") { db in
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
        },
        Migration("v2-passage-timeline") { db in
            // [[offset, seconds], …] of a transcript passage's timed sentences.
            try db.execute(sql: "ALTER TABLE passages ADD COLUMN timeline TEXT")
        },
        Migration("v2-web-cache") { db in
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
        },
        Migration("v3-llm-cache") { db in
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
        },
        Migration("v4-skip-key-parts") { db in
            // The skip key was one string, `PASSAGES|EMBEDDER`; its parts become columns. A key
            // of an older form (no `|`) keeps its whole as the passage part and matches no
            // embedder, so that document is read again once, as before.
            try db.execute(sql: """
                ALTER TABLE documents ADD COLUMN passage_key TEXT NOT NULL DEFAULT '';
                ALTER TABLE documents ADD COLUMN embedder_key TEXT NOT NULL DEFAULT '';
                UPDATE documents SET
                    passage_key = CASE WHEN instr(skip_key, '|') > 0 THEN substr(skip_key, 1, instr(skip_key, '|') - 1) ELSE skip_key END,
                    embedder_key = CASE WHEN instr(skip_key, '|') > 0 THEN substr(skip_key, instr(skip_key, '|') + 1) ELSE '' END;
                ALTER TABLE documents DROP COLUMN skip_key;
                """)
        },
        Migration("v4-library-mark") { db in
            // What tells a library from any other SQLite file (libraries made before carry
            // only their migrations and settings, and get the mark the first time one opens them).
            try db.execute(sql: "PRAGMA application_id = \(applicationId)")
            try db.execute(sql: "INSERT INTO settings(key, value) VALUES ('library', 'lectern') ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        },
        Migration("v4-run-process-start") { db in
            // With the pid, the process's start time names one process: a reused pid is not
            // taken for the run's own, still running, process.
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN process_start INTEGER")
        },
        Migration("v5-page-labels") { db in
            // The page's own name (`iii`, `A-3`) where it differs from its number: what hits and
            // `show` print; page_start/page keep the physical page. Null for rows written before.
            try db.execute(sql: """
                ALTER TABLE passages ADD COLUMN page_label TEXT;
                ALTER TABLE blocks ADD COLUMN page_label TEXT;
                """)
        },
        Migration("v5-llm-log") { db in
            // `lectern logs`: each call keeps what it was about (a question, a section), the
            // prompt, the answer, why the model stopped and how long it took.
            try db.execute(sql: """
                ALTER TABLE llm_calls ADD COLUMN subject TEXT;
                ALTER TABLE llm_calls ADD COLUMN prompt TEXT;
                ALTER TABLE llm_calls ADD COLUMN response TEXT;
                ALTER TABLE llm_calls ADD COLUMN finish_reason TEXT;
                ALTER TABLE llm_calls ADD COLUMN duration_ms INTEGER;
                ALTER TABLE llm_cache ADD COLUMN finish_reason TEXT;
                """)
        },
        Migration("v5-embedding-cache") { db in
            // Vectors computed for a document not yet stored, by (embedder identity, SHA-256 of
            // the exact text embedded): an interrupted ingest keeps its embedding work, and the
            // next run embeds only what is missing. Rows go when their document is stored, and
            // on `lectern prune`.
            try db.execute(sql: """
                CREATE TABLE embedding_cache (
                    embedder TEXT NOT NULL,
                    text_hash TEXT NOT NULL,
                    vector BLOB NOT NULL,
                    created_at TEXT NOT NULL,
                    PRIMARY KEY (embedder, text_hash)
                ) WITHOUT ROWID
                """)
        },
        Migration("v6-curricula") { db in
            // Curricula built from the library (`lectern curriculum build`): units, topics with
            // their objectives, key terms, passages (by row id, in reading order) and prerequisite
            // links; a keyword index over topics and topic vectors (the mean of their passages'),
            // stored like passage vectors. A source's content hash at build time tells a rebuild
            // which topics to make again.
            try db.execute(sql: """
                CREATE TABLE curricula (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    stable_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    model_name TEXT,
                    build_key TEXT NOT NULL DEFAULT '',
                    created_at TEXT NOT NULL,
                    modified_at TEXT NOT NULL
                );
                CREATE TABLE curriculum_sources (
                    curriculum_id INTEGER NOT NULL REFERENCES curricula(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    document_id INTEGER NOT NULL,
                    uri TEXT NOT NULL,
                    title TEXT NOT NULL,
                    type TEXT NOT NULL,
                    licence TEXT,
                    licence_url TEXT,
                    content_hash TEXT NOT NULL,
                    PRIMARY KEY (curriculum_id, position)
                ) WITHOUT ROWID;
                CREATE TABLE curriculum_units (
                    id INTEGER PRIMARY KEY,
                    curriculum_id INTEGER NOT NULL REFERENCES curricula(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    stable_id TEXT NOT NULL,
                    title TEXT NOT NULL
                );
                CREATE INDEX curriculum_units_curriculum ON curriculum_units(curriculum_id, position);
                CREATE TABLE topics (
                    id INTEGER PRIMARY KEY,
                    curriculum_id INTEGER NOT NULL REFERENCES curricula(id) ON DELETE CASCADE,
                    unit_id INTEGER NOT NULL REFERENCES curriculum_units(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    stable_id TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    summary_origin TEXT NOT NULL,
                    study_minutes INTEGER NOT NULL,
                    objectives TEXT NOT NULL,
                    key_terms TEXT NOT NULL
                );
                CREATE INDEX topics_unit ON topics(unit_id, position);
                CREATE INDEX topics_curriculum ON topics(curriculum_id);
                CREATE TABLE topic_objectives (
                    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    stable_id TEXT NOT NULL,
                    statement TEXT NOT NULL,
                    origin TEXT NOT NULL,
                    PRIMARY KEY (topic_id, position)
                ) WITHOUT ROWID;
                CREATE TABLE topic_key_terms (
                    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    term TEXT NOT NULL,
                    definition TEXT NOT NULL,
                    origin TEXT NOT NULL,
                    passage_id INTEGER,
                    PRIMARY KEY (topic_id, position)
                ) WITHOUT ROWID;
                CREATE TABLE topic_passages (
                    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    passage_id INTEGER NOT NULL,
                    PRIMARY KEY (topic_id, position)
                ) WITHOUT ROWID;
                CREATE INDEX topic_passages_passage ON topic_passages(passage_id);
                CREATE TABLE topic_links (
                    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    target_stable_id TEXT NOT NULL,
                    term TEXT NOT NULL,
                    PRIMARY KEY (topic_id, position)
                ) WITHOUT ROWID;
                CREATE VIRTUAL TABLE topics_fts USING fts5(
                    title, objectives, key_terms, summary,
                    content='topics', content_rowid='id',
                    tokenize='porter unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER topics_fts_insert AFTER INSERT ON topics BEGIN
                    INSERT INTO topics_fts(rowid, title, objectives, key_terms, summary)
                    VALUES (new.id, new.title, new.objectives, new.key_terms, new.summary);
                END;
                CREATE TRIGGER topics_fts_delete AFTER DELETE ON topics BEGIN
                    INSERT INTO topics_fts(topics_fts, rowid, title, objectives, key_terms, summary)
                    VALUES ('delete', old.id, old.title, old.objectives, old.key_terms, old.summary);
                END;
                CREATE TABLE topic_vector_blocks (
                    id INTEGER PRIMARY KEY,
                    embedder TEXT NOT NULL,
                    dimension INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    topic_ids BLOB NOT NULL,
                    vectors BLOB NOT NULL
                );
                CREATE INDEX topic_vector_blocks_embedder ON topic_vector_blocks(embedder);
                """)
        },
        Migration("v6-compact-vectors") { db in
            // Beside each float32 block, the same vectors as int8 codes with a scale per vector:
            // what a search scans (re-ranking its best candidates with the float32 rows). One
            // table for every vector set (`passages`, `topics`), keyed by the set's block id.
            try db.execute(sql: """
                CREATE TABLE compact_vector_blocks (
                    id INTEGER PRIMARY KEY,
                    vector_set TEXT NOT NULL,
                    block_id INTEGER NOT NULL,
                    embedder TEXT NOT NULL,
                    dimension INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    ids BLOB NOT NULL,
                    scales BLOB NOT NULL,
                    codes BLOB NOT NULL,
                    UNIQUE (vector_set, block_id)
                );
                CREATE INDEX compact_vector_blocks_embedder ON compact_vector_blocks(vector_set, embedder, block_id);
                """)
            try VectorBlocks.buildCompact(db, set: .passages)
            try VectorBlocks.buildCompact(db, set: .topics)
        },
        Migration("v6-cards") { db in
            // Flashcards (`lectern cards generate`): one row a note, by curriculum NAME (not row
            // id: a rebuilt curriculum gets new rows, and its cards, their GUIDs and modification
            // times must outlive that). Passage and document ids are kept as plain values for the
            // same reason. card_reports keeps each generate run's rejections and dedup counts.
            try db.execute(sql: """
                CREATE TABLE cards (
                    id INTEGER PRIMARY KEY,
                    curriculum TEXT NOT NULL,
                    guid TEXT NOT NULL,
                    curriculum_stable_id TEXT NOT NULL,
                    topic_stable_id TEXT NOT NULL,
                    note_type TEXT NOT NULL,
                    origin TEXT NOT NULL,
                    front TEXT NOT NULL,
                    back TEXT NOT NULL,
                    passage_id INTEGER NOT NULL,
                    document_id INTEGER NOT NULL,
                    page_start INTEGER,
                    page_label TEXT,
                    time_start REAL,
                    source TEXT NOT NULL,
                    tags TEXT NOT NULL,
                    grounding REAL NOT NULL,
                    ordinal INTEGER NOT NULL,
                    run_id INTEGER,
                    modified_at REAL NOT NULL,
                    UNIQUE (curriculum, guid)
                );
                CREATE INDEX cards_topic ON cards(curriculum, topic_stable_id);
                CREATE TABLE card_reports (
                    run_id INTEGER PRIMARY KEY,
                    curriculum TEXT NOT NULL,
                    report TEXT NOT NULL,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX card_reports_curriculum ON card_reports(curriculum, run_id);
                """)
        },
        Migration("v6-curriculum-labels") { db in
            // Who wrote a topic's title: NULL for the source's own heading; "offline" (key
            // phrases) or "model" for a stretch of a transcript found by content. And the tags a
            // pipeline gives a source (one per line), which its cards carry.
            try db.execute(sql: """
                ALTER TABLE topics ADD COLUMN title_origin TEXT;
                ALTER TABLE curriculum_sources ADD COLUMN tags TEXT;
                """)
        },
        Migration("v7-heading-facts") { db in
            // The headings that carry reader facts (a section's page, its anchor): every search
            // hit's link reads them for its document, which blocks_document answered by reading
            // every block of the document (a whole book for one hit).
            try db.execute(sql: """
                CREATE INDEX blocks_heading_facts ON blocks(document_id, ordinal)
                WHERE kind = 'heading' AND attributes IS NOT NULL;
                """)
        },
        Migration("v8-search-section-facts") { db in
            // What a search hit needs of its document's blocks, found for that hit alone: the
            // headings of its own section path and the first cue of its section (by section
            // path, not by reading a book's every heading), and who speaks at a moment (by
            // time). blocks_heading_facts, which listed every heading of the document, is
            // covered by the first.
            try db.execute(sql: """
                CREATE INDEX blocks_section_facts ON blocks(document_id, kind, section_path, ordinal)
                WHERE attributes IS NOT NULL;
                CREATE INDEX blocks_timed ON blocks(document_id, time_start, ordinal)
                WHERE time_start IS NOT NULL;
                DROP INDEX IF EXISTS blocks_heading_facts;
                """)
        },
        Migration("v8-search-library-totals") { db in
            // What `stats` counts, kept as the rows come and go (in the writes' own
            // transactions, by triggers): summing a million passages took 291 ms warm.
            try db.execute(sql: """
                CREATE TABLE library_totals (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO library_totals(name, value)
                    SELECT 'passages', COUNT(*) FROM passages
                    UNION ALL SELECT 'tokens', COALESCE(SUM(token_count), 0) FROM passages
                    UNION ALL SELECT 'blocks', COUNT(*) FROM blocks;
                CREATE TRIGGER passages_totals_insert AFTER INSERT ON passages BEGIN
                    UPDATE library_totals SET value = value + 1 WHERE name = 'passages';
                    UPDATE library_totals SET value = value + new.token_count WHERE name = 'tokens';
                END;
                CREATE TRIGGER passages_totals_delete AFTER DELETE ON passages BEGIN
                    UPDATE library_totals SET value = value - 1 WHERE name = 'passages';
                    UPDATE library_totals SET value = value - old.token_count WHERE name = 'tokens';
                END;
                CREATE TRIGGER passages_totals_update AFTER UPDATE OF token_count ON passages BEGIN
                    UPDATE library_totals SET value = value - old.token_count + new.token_count WHERE name = 'tokens';
                END;
                CREATE TRIGGER blocks_totals_insert AFTER INSERT ON blocks BEGIN
                    UPDATE library_totals SET value = value + 1 WHERE name = 'blocks';
                END;
                CREATE TRIGGER blocks_totals_delete AFTER DELETE ON blocks BEGIN
                    UPDATE library_totals SET value = value - 1 WHERE name = 'blocks';
                END;
                """)
        },
        Migration("v8-card-quality") { db in
            // Each card's six checks and score (`CardQuality` as JSON; NULL for cards generated
            // before the checks), and why each key term is one: the source's glossary, a defining
            // sentence, emphasis or a heading (NULL for curricula built before: read as defined).
            try db.execute(sql: """
                ALTER TABLE cards ADD COLUMN quality TEXT;
                ALTER TABLE topic_key_terms ADD COLUMN basis TEXT;
                """)
        },
        Migration("v9-json-lists") { db in
            // A source's tags as a JSON array, as every other list column holds them (they were
            // joined with newlines, and NULL for none): the records read and write JSON alike.
            let rows = try Row.fetchAll(db, sql: "SELECT curriculum_id, position, tags FROM curriculum_sources")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for row in rows {
                let joined: String? = row["tags"]
                let tags = joined?.split(separator: "\n").map(String.init) ?? []
                try db.execute(sql: "UPDATE curriculum_sources SET tags = ? WHERE curriculum_id = ? AND position = ?",
                               arguments: [String(decoding: try encoder.encode(tags), as: UTF8.self), row["curriculum_id"] as Int64, row["position"] as Int])
            }
        },
        Migration("v9-run-outputs") { db in
            // The files a run wrote, in a table of their own (they were counts named
            // `wrote:/abs/path`, and the newest of each path a setting of the same name holding
            // "format|hash|build key|cards basis"), and each curriculum's cards basis (a
            // `cards-basis:NAME` setting).
            try db.execute(sql: """
                CREATE TABLE run_outputs (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
                    path TEXT NOT NULL,
                    format TEXT,
                    content_hash TEXT,
                    build_key TEXT,
                    cards_basis TEXT,
                    written INTEGER NOT NULL
                );
                CREATE INDEX run_outputs_run ON run_outputs(run_id);
                CREATE INDEX run_outputs_path ON run_outputs(path, id);
                CREATE TABLE card_bases (
                    curriculum TEXT PRIMARY KEY NOT NULL,
                    build_key TEXT NOT NULL
                );
                """)
            let wrote = "wrote:", cardsBasis = "cards-basis:"
            for row in try Row.fetchAll(db, sql: "SELECT id, counts FROM runs WHERE counts LIKE '%\"wrote:%'") {
                guard let counts = try? JSONDecoder().decode([String: Int].self, from: Data((row["counts"] as String).utf8)) else { continue }
                for path in counts.keys.filter({ $0.hasPrefix(wrote) }).sorted() {
                    try db.execute(sql: "INSERT INTO run_outputs(run_id, path, written) VALUES (?, ?, 1)",
                                   arguments: [row["id"] as Int64, String(path.dropFirst(wrote.count))])
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                try db.execute(sql: "UPDATE runs SET counts = ? WHERE id = ?",
                               arguments: [String(decoding: try encoder.encode(counts.filter { !$0.key.hasPrefix(wrote) }), as: UTF8.self), row["id"] as Int64])
            }
            // After the runs' rows, so that they are each path's newest.
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM settings WHERE key LIKE 'wrote:%' ORDER BY key") {
                let parts = (row["value"] as String).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                func part(_ index: Int) -> String? { index < parts.count ? parts[index] : nil }
                try db.execute(sql: """
                    INSERT INTO run_outputs(run_id, path, format, content_hash, build_key, cards_basis, written) VALUES (NULL, ?, ?, ?, ?, ?, 0)
                    """, arguments: [String((row["key"] as String).dropFirst(wrote.count)), part(0), part(1), part(2), part(3)])
            }
            try db.execute(sql: """
                INSERT INTO card_bases(curriculum, build_key)
                    SELECT substr(key, \(cardsBasis.count + 1)), value FROM settings WHERE key LIKE 'cards-basis:%';
                DELETE FROM settings WHERE key LIKE 'wrote:%' OR key LIKE 'cards-basis:%';
                """)
        },
        Migration("v10-link-reason-course-summary") { db in
            // Why a topic builds on another: a term it uses ('term', what every link of an
            // earlier build rests on, read so when NULL) or the author's reference back to it;
            // and a curriculum's own description where its source gives one (an OCW course's).
            try db.execute(sql: """
                ALTER TABLE topic_links ADD COLUMN reason TEXT;
                ALTER TABLE curricula ADD COLUMN summary TEXT;
                """)
        },
        Migration("v11-vector-block-counts") { db in
            // A block row holds its blobs, so a table scan of the blocks reads a page per block
            // (4,000 at a million vectors, scattered through the file): `stats` and every scan's
            // block list read these covering indexes instead, a few dense pages.
            try db.execute(sql: """
                DROP INDEX vector_blocks_embedder;
                CREATE INDEX vector_blocks_counts ON vector_blocks(embedder, count);
                DROP INDEX topic_vector_blocks_embedder;
                CREATE INDEX topic_vector_blocks_counts ON topic_vector_blocks(embedder, count);
                DROP INDEX compact_vector_blocks_embedder;
                CREATE INDEX compact_vector_blocks_scan ON compact_vector_blocks(vector_set, embedder, dimension, block_id, count);
                """)
        },
        Migration("v12-vmap-vector-generation") { db in
            // What the vector sidecar (`VectorSidecar`, a cache of the passages' int8 codes in a
            // file beside the library) is checked against: the library's identity, random, so
            // that a sidecar beside another library (a file replaced, a copy) is never read; and
            // the passages' vector generation, a random value drawn anew by every write to their
            // blocks in the write's own transaction (by triggers, whatever code writes), so that
            // two copies of one library written apart never share one, as a count would.
            try db.execute(sql: """
                INSERT INTO settings(key, value) VALUES ('library_id', lower(hex(randomblob(16))))
                    ON CONFLICT(key) DO NOTHING;
                INSERT INTO settings(key, value) VALUES ('vector_generation', lower(hex(randomblob(8))))
                    ON CONFLICT(key) DO UPDATE SET value = excluded.value;
                """)
            for (table, event, row) in [("vector_blocks", "INSERT", "new"), ("vector_blocks", "UPDATE", "new"), ("vector_blocks", "DELETE", "old"),
                                        ("compact_vector_blocks", "INSERT", "new"), ("compact_vector_blocks", "UPDATE", "new"),
                                        ("compact_vector_blocks", "DELETE", "old")] {
                let passagesOnly = table == "compact_vector_blocks" ? "WHEN \(row).vector_set = 'passages' " : ""
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_generation_\(event.lowercased()) AFTER \(event) ON \(table) \(passagesOnly)BEGIN
                        UPDATE settings SET value = lower(hex(randomblob(8))) WHERE key = 'vector_generation';
                    END;
                    """)
            }
        },
        Migration("v13-kwi-keyword-postings") { db in
            // Lectern's own keyword postings beside FTS5's index (`KeywordPostings`): for each
            // term and document, the passages holding it with their counts in the text and the
            // section; each passage's size in tokens; how many passages hold each term. A
            // keyword query is ranked from them with FTS5's BM25 at a tenth of `bm25()`'s cost.
            // Built here from the passages, by FTS5's own tokenizer.
            try db.execute(sql: """
                CREATE TABLE keyword_postings (
                    term TEXT NOT NULL,
                    document_id INTEGER NOT NULL,
                    passages INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (term, document_id)
                ) WITHOUT ROWID;
                CREATE TABLE keyword_terms (term TEXT PRIMARY KEY, passages INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE keyword_sizes (document_id INTEGER PRIMARY KEY, tokens INTEGER NOT NULL, data BLOB NOT NULL);
                INSERT INTO library_totals(name, value) VALUES ('\(KeywordPostings.totalTokensName)', 0);
                """)
            try KeywordPostings.addAll(db)
        },
        Migration("v14-objective-stand-in") { db in
            // Which objectives the build made because a topic's unit lent it none
            // (`LearningObjective.standIn`; NULL for the rest and for curricula built before):
            // a rebuild that keeps the topic makes them again, as a fresh build would.
            try db.execute(sql: "ALTER TABLE topic_objectives ADD COLUMN stand_in INTEGER;")
        },
    ]

    /// What a SQLite file holds, told apart before anything writes to it.
    enum Contents: Equatable {
        /// Nothing yet, or only an unfinished first migration: a library can be made here.
        case empty
        /// A library, with the identifiers of the migrations it still lacks.
        case library(pending: [String])
        /// Someone else's file: why it is not a library.
        case foreign(String)
    }

    static func contents(_ db: Database) throws -> Contents {
        let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        let mark = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let applied = tables.contains(migrationTable) ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
        if mark == applicationId || (mark == 0 && applied.contains("v1-foundation") && tables.contains("settings")) {
            return .library(pending: migrations.map(\.identifier).filter { !applied.contains($0) })
        }
        if mark != 0 { return .foreign("a SQLite file of another application") }
        // GRDB's migrator created its table before the first migration's transaction.
        if tables.isEmpty || (tables == [migrationTable] && applied.isEmpty) { return .empty }
        return .foreign("a SQLite file with other tables")
    }

    /// Applies the migrations `db` lacks, in order, inside the caller's transaction.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
        for migration in migrations where !applied.contains(migration.identifier) {
            try migration.apply(db)
            try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES (?)", arguments: [migration.identifier])
        }
    }
}
