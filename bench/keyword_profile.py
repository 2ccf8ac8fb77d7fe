"""Where a keyword query's time goes on a large library, and what block-max bounds would save.

For each of the search bench's keyword queries (bench/search_bench.py's list, by index):
- the passages each word is held by (FTS5's document frequency);
- the CPU of FTS5 doing parts of the work: iterating the doclists alone (`count(*)`), the
  row-size lookups bm25() makes for every match (`passages_fts_docsize` read once per match),
  the full ranking (`ORDER BY -bm25() LIMIT k`, what `keywordMatches` runs when no word is left
  out), and bm25() over one block of 1,024 rowids (what a per-block evaluation through FTS5 would
  pay: FTS5 counts each word's idf over its whole doclist once per statement);
- with --blockmax: every matching passage's BM25 recomputed from FTS5's own instance lists and
  row sizes (checked against bm25()'s top 3), the k-th score θ, and for blocks of 256, 1,024 and
  4,096 rowids the share of the matches that lie in blocks whose bound (per word, its largest
  weighted tf in the block over the block's shortest row, summed over the words) reaches θ:
  what Block-Max WAND / MaxScore over blocks would still have to score.

Read-only on the library (temp tables only). Run with Debian's /usr/bin/python3:

    /usr/bin/python3 bench/keyword_profile.py LIBRARY.db [--queries 8,36] [--blockmax] [-k 100]
"""
import argparse
import math
import os
import resource
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402  (the bench's query list)

K1, B = 1.2, 0.75
WEIGHTS = {"text": 1.0, "section": 0.5}  # LibraryStore.KeywordWeights


def cpu_ms(c, sql, args=(), repeats=3):
    """The least CPU (user + system) of `repeats` runs of a statement, in ms."""
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_SELF)
        c.execute(sql, args).fetchall()
        after = resource.getrusage(resource.RUSAGE_SELF)
        best = min(best, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    return best


def varints(blob):
    values, value, shift = [], 0, 0
    for byte in blob:
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            values.append(value)
            value, shift = 0, 0
    return values


def costs(c, index, query, k):
    words = query.split()
    anyq = " OR ".join(f'"{w}"' for w in words)
    dfs = [c.execute("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", (f'"{w}"',)).fetchone()[0] for w in words]
    middle = c.execute("SELECT MAX(id) FROM passages").fetchone()[0] // 2
    matches = c.execute("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", (anyq,)).fetchone()[0]
    iterate = cpu_ms(c, "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", (anyq,))
    sizes = cpu_ms(c, "SELECT count(sz) FROM passages_fts_docsize WHERE id IN (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?)", (anyq,))
    full = cpu_ms(c, f"SELECT rowid, -bm25(passages_fts, 1.0, 0.5) s FROM passages_fts WHERE passages_fts MATCH ? ORDER BY s DESC, rowid LIMIT {k}", (anyq,))
    block = cpu_ms(c, f"SELECT rowid, -bm25(passages_fts, 1.0, 0.5) s FROM passages_fts WHERE passages_fts MATCH ? "
                      f"AND rowid >= ? AND rowid < ? ORDER BY s DESC, rowid LIMIT {k}", (anyq, middle, middle + 1024))
    print(f"q{index:<2} {query!r:42} df {dfs}  matches {matches}  CPU ms: doclists {iterate:.1f}, row sizes {sizes:.1f}, "
          f"full ranking {full:.1f} ({1000 * full / max(matches, 1):.2f} µs a match), one block {block:.1f}", flush=True)


def blockmax(c, index, query, k, size, average):
    passages = len(size)
    frequencies = []
    for word in query.split():
        c.execute("DELETE FROM temp.stem")
        c.execute("INSERT INTO temp.stem(x) VALUES (?)", (word,))
        term = c.execute("SELECT term FROM temp.stem_terms").fetchone()[0]
        f = {}
        for doc, column in c.execute("SELECT doc, col FROM temp.instances WHERE term = ?", (term,)):
            f[doc] = f.get(doc, 0) + WEIGHTS[column]
        frequencies.append(f)
    idfs = [max(math.log((passages - len(f) + 0.5) / (len(f) + 0.5)), 0) or 1e-6 for f in frequencies]
    score = {}
    for f, idf in zip(frequencies, idfs):
        for doc, tf in f.items():
            score[doc] = score.get(doc, 0) + idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * size[doc] / average))
    ranked = sorted(score.items(), key=lambda item: (-item[1], item[0]))
    theta = ranked[k - 1][1] if len(ranked) >= k else 0.0
    anyq = " OR ".join(f'"{w}"' for w in query.split())
    fts = c.execute("SELECT rowid, -bm25(passages_fts, 1.0, 0.5) s FROM passages_fts WHERE passages_fts MATCH ? ORDER BY s DESC, rowid LIMIT 3",
                    (anyq,)).fetchall()
    same = [r for r, _ in fts] == [r for r, _ in ranked[:3]] and all(abs(a - b) < 1e-9 for (_, a), (_, b) in zip(fts, ranked))
    shares = []
    for span in (256, 1024, 4096):
        bound = {}
        for f, idf in zip(frequencies, idfs):
            per = {}
            for doc, tf in f.items():
                most, shortest = per.get(doc // span, (0.0, 1 << 30))
                per[doc // span] = (max(most, tf), min(shortest, size[doc]))
            for blk, (most, shortest) in per.items():
                bound[blk] = bound.get(blk, 0.0) + idf * most * (K1 + 1) / (most + K1 * (1 - B + B * shortest / average))
        live = {blk for blk, value in bound.items() if value >= theta}
        scored = sum(1 for doc in score if doc // span in live)
        shares.append(f"{span}: {len(live)}/{len(bound)} blocks, {100 * scored / max(len(score), 1):.0f}% of matches")
    print(f"q{index:<2} {query!r:42} θ {theta:.3f} (k {k}; bm25() agrees: {same})  " + "; ".join(shares), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--queries", help="indices into the bench's 40 queries (default: all)")
    parser.add_argument("--blockmax", action="store_true")
    parser.add_argument("-k", type=int, default=100, help="the ranking's depth (Searcher.candidates)")
    args = parser.parse_args()
    queries = search_bench.queries(40)
    chosen = [int(i) for i in args.queries.split(",")] if args.queries else range(len(queries))
    c = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    for index in chosen:
        costs(c, index, queries[index], args.k)
    if args.blockmax:
        c.execute("CREATE VIRTUAL TABLE temp.instances USING fts5vocab(main, passages_fts, instance)")
        c.execute("CREATE VIRTUAL TABLE temp.stem USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
        c.execute("CREATE VIRTUAL TABLE temp.stem_terms USING fts5vocab(temp, stem, row)")
        size = {rowid: sum(varints(sz)) for rowid, sz in c.execute("SELECT id, sz FROM passages_fts_docsize")}
        average = sum(size.values()) / len(size)
        for index in chosen:
            blockmax(c, index, queries[index], args.k, size, average)


if __name__ == "__main__":
    main()
