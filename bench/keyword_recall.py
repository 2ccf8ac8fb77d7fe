"""What leaving a query's common words out of the match (KeywordEvaluation) changes: for the
search bench's queries, `lectern search --mode keyword -k K` against FTS5 ranking every word
(the same bm25() and weights, run here through Python's sqlite3 on the same SQLite library),
recall@K, how many queries come out in the same order and how many with the same
scores to 10⁻⁵ (passages whose scores differ only by a floor-idf word may trade places); and the full evaluation's time
beside lectern's in-process one.

    /usr/bin/python3 bench/keyword_recall.py --lectern .build/debug/lectern --db LIBRARY.db [--k 10]
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    environment = dict(os.environ) | {"LECTERN_EMBEDDER": "hashing", "NO_COLOR": "1"}
    qs = search_bench.queries(args.queries)
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    found = same = same_scores = total = 0
    full_ms = []
    for q in qs:
        match = " OR ".join(f'"{w}"' for w in q.split())
        start = time.perf_counter()
        truth = db.execute("SELECT rowid, -bm25(passages_fts, 1.0, 0.5) AS score FROM passages_fts WHERE passages_fts MATCH ? "
                           "ORDER BY score DESC, rowid LIMIT ?", (match, args.k)).fetchall()
        full_ms.append((time.perf_counter() - start) * 1000)
        out = subprocess.run([args.lectern, "search", q, "--mode", "keyword", "-k", str(args.k), "--json", "--db", args.db],
                             capture_output=True, env=environment)
        hits = json.loads(out.stdout or b"[]")
        got = [h.get("passage_id", h.get("passageId")) for h in hits]
        want = [r[0] for r in truth]
        found += len(set(got) & set(want))
        total += len(want)
        same += got == want
        # Passages whose scores tie to 10⁻⁵ (a word of FTS5's floor idf, 10⁻⁶, left out) may trade places.
        scores = [h["bm25"] for h in hits]
        same_scores += len(scores) == len(truth) and all(abs(a - b[1]) < 1e-5 for a, b in zip(scores, truth))
        if got != want:
            print(f"  {q!r}: {len(set(got) & set(want))}/{len(want)} of the full top {args.k}", file=sys.stderr)
    full_ms.sort()
    print(json.dumps({"queries": len(qs), "k": args.k, f"recall@{args.k}": round(found / max(total, 1), 4),
                      "same_order": same, "same_scores_to_1e-5": same_scores, "full_evaluation_p50_ms": round(full_ms[len(full_ms) // 2], 1),
                      "full_evaluation_p95_ms": round(full_ms[min(len(full_ms) - 1, round(0.95 * (len(full_ms) - 1)))], 1)}))


if __name__ == "__main__":
    main()
