"""Pads a library that `lectern ingest` made from the search bench's synthetic notes (hashing
embedder) to PASSAGES passages in minutes instead of the ~16 minutes (release) or hours (debug)
an ingest of a million passages takes: each round copies every original document (a new source,
document and blocks), gives each copied passage fresh text drawn as the bench draws its notes
(so a word's share of passages, which decides what a keyword query costs, stays the same), and
copies the float32 and compact vector blocks with the new passage ids. The FTS5 index and the
library's totals fill through the library's own triggers; the keyword postings are rebuilt by the
next `lectern` that opens the library (their migration, run again).

Semantic rankings on a padded library are not meaningful (a copied passage keeps its original's
vector); its speed is, since a scan reads every vector whatever they hold.

    python3 bench/pad_library.py LIBRARY.db PASSAGES
"""
import os
import random
import sqlite3
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402  (the bench's vocabulary and word draw)


def fresh_text(rng, words):
    text = " ".join(words[min(int(rng.paretovariate(0.6)) - 1, len(words) - 1)] if rng.random() < 0.5
                    else rng.choice(words) for _ in range(90))
    return text.capitalize() + "."


def main():
    db, wanted = sys.argv[1], int(sys.argv[2])
    c = sqlite3.connect(db)
    c.execute("PRAGMA foreign_keys = OFF")
    original = c.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
    if original == 0:
        raise SystemExit(f"{db}: no passages to pad from")
    rounds = (wanted - original + original - 1) // original
    max_source = c.execute("SELECT MAX(id) FROM sources").fetchone()[0]
    max_document = c.execute("SELECT MAX(id) FROM documents").fetchone()[0]
    max_passage = c.execute("SELECT MAX(id) FROM passages").fetchone()[0]
    max_block = c.execute("SELECT MAX(id) FROM vector_blocks").fetchone()[0]
    passage_columns = [r[1] for r in c.execute("PRAGMA table_info(passages)") if r[1] not in ("id", "document_id", "text")]
    passages = c.execute(f"SELECT id, document_id, {', '.join(passage_columns)} FROM passages ORDER BY id").fetchall()
    blocks = c.execute("SELECT id, embedder, dimension, count, passage_ids, vectors FROM vector_blocks ORDER BY id").fetchall()
    compact = {row[0]: row[1:] for row in c.execute(
        "SELECT block_id, embedder, dimension, count, ids, scales, codes FROM compact_vector_blocks WHERE vector_set = 'passages'")}
    block_columns = [r[1] for r in c.execute("PRAGMA table_info(blocks)") if r[1] not in ("id", "document_id")]
    document_columns = [r[1] for r in c.execute("PRAGMA table_info(documents)") if r[1] not in ("id", "source_id", "uri", "short_id", "path", "content_hash")]
    words = search_bench.vocabulary()
    rng = random.Random(20261128)
    made = original
    for n in range(1, rounds + 1):
        if made >= wanted:
            break
        so, do, po, bo = n * max_source, n * max_document, n * max_passage, n * max_block
        c.execute("BEGIN")
        c.execute("INSERT INTO sources(id, uri, kind, created_at, updated_at) "
                  "SELECT id + ?, uri || '#copy' || ?, kind, created_at, updated_at FROM sources WHERE id <= ?", (so, n, max_source))
        c.execute(f"INSERT INTO documents(id, source_id, uri, short_id, path, content_hash, {', '.join(document_columns)}) "
                  f"SELECT id + ?, source_id + ?, uri || '#copy' || ?, short_id || 'c' || ?, path || '#copy' || ?, "
                  f"content_hash || ?, {', '.join(document_columns)} FROM documents WHERE id <= ?",
                  (do, so, n, n, n, f"-{n}", max_document))
        c.execute(f"INSERT INTO blocks(document_id, {', '.join(block_columns)}) "
                  f"SELECT document_id + ?, {', '.join(block_columns)} FROM blocks WHERE document_id <= ? ORDER BY id",
                  (do, max_document))
        take = min(original, wanted - made)
        rows = [(p[0] + po, p[1] + do, fresh_text(rng, words), *p[2:]) for p in passages[:take]]
        c.executemany(f"INSERT INTO passages(id, document_id, text, {', '.join(passage_columns)}) "
                      f"VALUES ({', '.join('?' * (3 + len(passage_columns)))})", rows)
        kept = {p[0] for p in passages[:take]}
        for block_id, embedder, dimension, count, ids_blob, vectors in blocks:
            ids = struct.unpack(f"<{count}q", ids_blob)
            keep = [i for i, pid in enumerate(ids) if pid in kept]
            if not keep:
                continue
            new_ids = struct.pack(f"<{len(keep)}q", *(ids[i] + po for i in keep))
            floats = b"".join(vectors[i * dimension * 4:(i + 1) * dimension * 4] for i in keep)
            c.execute("INSERT INTO vector_blocks(id, embedder, dimension, count, passage_ids, vectors) VALUES (?, ?, ?, ?, ?, ?)",
                      (block_id + bo, embedder, dimension, len(keep), new_ids, floats))
            _, cdim, ccount, cids, scales, codes = compact[block_id]
            cids = struct.unpack(f"<{ccount}q", cids)
            order = [cids.index(ids[i]) for i in keep]
            c.execute("INSERT INTO compact_vector_blocks(vector_set, block_id, embedder, dimension, count, ids, scales, codes) "
                      "VALUES ('passages', ?, ?, ?, ?, ?, ?, ?)",
                      (block_id + bo, embedder, dimension, len(keep), struct.pack(f"<{len(keep)}q", *(cids[j] + po for j in order)),
                       b"".join(scales[j * 4:(j + 1) * 4] for j in order), b"".join(codes[j * cdim:(j + 1) * cdim] for j in order)))
        c.execute("UPDATE documents SET passage_count = (SELECT COUNT(*) FROM passages p WHERE p.document_id = documents.id) "
                  "WHERE id > ? AND id <= ?", (do, do + max_document))
        c.execute("INSERT INTO settings(key, value) VALUES ('vector_generation', '1') "
                  "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
        c.execute("COMMIT")
        made += take
        print(f"pad: {made} passages", file=sys.stderr, flush=True)
    # The keyword postings (migration v13-kwi-keyword-postings) are made by FTS5's own tokenizer,
    # which only Lectern reaches: they are dropped with their migration's record, and the next
    # `lectern` that opens the library builds them again for every passage, copies included.
    if c.execute("SELECT 1 FROM sqlite_master WHERE name = 'keyword_postings'").fetchone():
        c.executescript("""
            BEGIN;
            DROP TABLE keyword_postings; DROP TABLE keyword_terms; DROP TABLE keyword_sizes;
            DELETE FROM library_totals WHERE name = 'keyword_tokens';
            DELETE FROM grdb_migrations WHERE identifier = 'v13-kwi-keyword-postings';
            COMMIT;
            """)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()


if __name__ == "__main__":
    main()
