#!/usr/bin/env python3
"""Prints a JSON digest of a Lectern library, for tests that compare two libraries.

Usage: library_digest.py LIBRARY.db

{"integrity": "ok", "fts": "ok", "documents": {uri: {"content_hash", "skip_key", "passages",
 "texts": sha256 of the passage texts in order, "vectors": sha256 of their vectors in order,
 "updated_at"}}, "curricula": {name: {"title", "units": [[title, [[topic title, sha256 of its
 summary, key terms and objectives]]]]}}, "cards": {curriculum: [sha256 of front and back, sorted]},
 "passages": N, "vectors": N, "duplicate_vectors": N, "passages_without_vector": N,
 "vectors_without_passage": N}
"""
import hashlib
import json
import sqlite3
import struct
import sys

db = sqlite3.connect(sys.argv[1])
integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'vector_blocks'").fetchone():
    # A library killed before its schema was made holds nothing yet.
    print(json.dumps({"integrity": integrity, "fts": "ok", "documents": {}, "passages": 0, "vectors": 0, "duplicate_vectors": 0,
                      "passages_without_vector": 0, "vectors_without_passage": 0}))
    sys.exit(0)
try:
    db.execute("INSERT INTO passages_fts(passages_fts) VALUES('integrity-check')")
    fts = "ok"
except sqlite3.DatabaseError as error:
    fts = str(error)
vector_of = {}
duplicates = 0
total_vectors = 0
for dimension, count, ids, vectors in db.execute("SELECT dimension, count, passage_ids, vectors FROM vector_blocks"):
    ids = struct.unpack("<%dq" % count, ids)
    for i, pid in enumerate(ids):
        total_vectors += 1
        if pid in vector_of:
            duplicates += 1
        vector_of[pid] = vectors[i * dimension * 4:(i + 1) * dimension * 4]
passage_ids = set()
documents = {}
for doc_id, uri, content_hash, skip_key, count, updated_at in db.execute(
        "SELECT id, uri, content_hash, passage_key || '|' || embedder_key, passage_count, updated_at FROM documents ORDER BY uri"):
    texts, vecs = hashlib.sha256(), hashlib.sha256()
    stored = 0
    for pid, text in db.execute("SELECT id, text FROM passages WHERE document_id = ? ORDER BY ordinal", (doc_id,)):
        passage_ids.add(pid)
        stored += 1
        texts.update(text.encode() + b"\0")
        vecs.update(vector_of.get(pid, b"missing"))
    documents[uri] = {"content_hash": content_hash, "skip_key": skip_key, "passages": stored, "passage_count": count,
                      "texts": texts.hexdigest(), "vectors": vecs.hexdigest(), "updated_at": updated_at}
curricula = {}
if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'curricula'").fetchone():
    for cid, name, title in db.execute("SELECT id, name, title FROM curricula ORDER BY name"):
        units = []
        for uid, utitle in db.execute("SELECT id, title FROM curriculum_units WHERE curriculum_id = ? ORDER BY position", (cid,)):
            topics = [[t, hashlib.sha256((summary + "\0" + terms + "\0" + objectives).encode()).hexdigest()]
                      for t, summary, terms, objectives in db.execute(
                          "SELECT title, summary, key_terms, objectives FROM topics WHERE unit_id = ? ORDER BY position", (uid,))]
            units.append([utitle, topics])
        curricula[name] = {"title": title, "units": units}
cards = {}
if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'cards'").fetchone():
    for curriculum, front, back in db.execute("SELECT curriculum, front, back FROM cards ORDER BY curriculum, front, back"):
        cards.setdefault(curriculum, []).append(hashlib.sha256((front + "\0" + back).encode()).hexdigest())
print(json.dumps({
    "integrity": integrity, "curricula": curricula, "cards": cards, "fts": fts, "documents": documents,
    "passages": db.execute("SELECT count(*) FROM passages").fetchone()[0], "vectors": total_vectors,
    "duplicate_vectors": duplicates,
    "passages_without_vector": len(passage_ids - set(vector_of)),
    "vectors_without_passage": len(set(vector_of) - passage_ids),
}, sort_keys=True))
