import Foundation

extension PostgresSchema {
    /// The curriculum wing's tables, as the SQLite library's of the same names (`v6-curricula`,
    /// `v6-cards`, `v3-llm-cache`): curricula with their sources, units and topics (each topic's
    /// keywords a tsvector, its title's positions weighted A, objectives' B, key terms' C and
    /// summary's D, so BM25 weighs the columns as FTS5 weighs `topics_fts`; its vector the mean
    /// of its passages' in float32), cards and their reports by curriculum NAME (they outlive a
    /// rebuild's row ids), summaries, and the model's answers and calls.
    static let curriculaCards: (name: String, statements: [String]) = ("v3-curricula-cards", [
        """
        create table curricula (id bigserial primary key, name text not null unique, stable_id text not null,
            title text not null, model_name text, build_key text not null, created_at text not null,
            modified_at text not null, summary text)
        """,
        """
        create table curriculum_sources (curriculum_id bigint not null references curricula(id) on delete cascade,
            position integer not null, document_id bigint not null, uri text not null, title text not null, type text not null,
            licence text, licence_url text, content_hash text not null, tags text not null, primary key (curriculum_id, position))
        """,
        """
        create table curriculum_units (id bigserial primary key, curriculum_id bigint not null references curricula(id) on delete cascade,
            position integer not null, stable_id text not null, title text not null)
        """,
        "create index curriculum_units_curriculum on curriculum_units (curriculum_id, position)",
        """
        create table topics (id bigserial primary key, curriculum_id bigint not null references curricula(id) on delete cascade,
            unit_id bigint not null references curriculum_units(id) on delete cascade, position integer not null,
            stable_id text not null unique, title text not null, title_origin text, summary text not null,
            summary_origin text not null, study_minutes integer not null, objectives text not null, key_terms text not null,
            keywords tsvector not null, keyword_length integer not null, embedder text, exact vector)
        """,
        "create index topics_curriculum on topics (curriculum_id, unit_id, position)",
        "create index topics_keywords on topics using gin (keywords)",
        """
        create table topic_objectives (topic_id bigint not null references topics(id) on delete cascade, position integer not null,
            stable_id text not null, statement text not null, origin text not null, primary key (topic_id, position))
        """,
        """
        create table topic_key_terms (topic_id bigint not null references topics(id) on delete cascade, position integer not null,
            term text not null, definition text not null, origin text not null, passage_id bigint, basis text,
            primary key (topic_id, position))
        """,
        """
        create table topic_passages (topic_id bigint not null references topics(id) on delete cascade, position integer not null,
            passage_id bigint not null, primary key (topic_id, position))
        """,
        "create index topic_passages_passage on topic_passages (passage_id)",
        """
        create table topic_links (topic_id bigint not null references topics(id) on delete cascade, position integer not null,
            target_stable_id text not null, term text not null, reason text, primary key (topic_id, position))
        """,
        """
        create table cards (id bigserial primary key, curriculum text not null, guid text not null,
            curriculum_stable_id text not null, topic_stable_id text not null, note_type text not null, origin text not null,
            front text not null, back text not null, passage_id bigint not null, document_id bigint not null,
            page_start integer, page_label text, time_start double precision, source text not null, tags text not null,
            grounding double precision not null, ordinal integer not null, run_id bigint, modified_at double precision not null,
            quality text, unique (curriculum, guid))
        """,
        "create index cards_topic on cards (curriculum, topic_stable_id)",
        """
        create table card_reports (run_id bigint primary key, curriculum text not null, report text not null,
            created_at text not null)
        """,
        """
        create table summaries (id bigserial primary key, document_id bigint not null references documents(id) on delete cascade,
            section text, ordinal integer not null, text text not null, key_points text not null, provider text not null,
            model text not null, content_hash text not null, created_at text not null)
        """,
        "create index summaries_document on summaries (document_id, ordinal)",
        """
        create table llm_cache (key text primary key, provider text not null, model text not null, template text not null,
            response text not null, input_tokens integer not null, output_tokens integer not null, truncated boolean not null,
            finish_reason text, created_at text not null)
        """,
        """
        create table llm_calls (id bigserial primary key, run_id bigint, provider text not null, model text not null,
            template text not null, input_tokens integer not null, output_tokens integer not null, cost_usd double precision,
            cached boolean not null, at text not null, subject text, prompt text, response text, finish_reason text,
            duration_ms integer)
        """,
        "create index llm_calls_run on llm_calls (run_id, id)",
    ])
}
