"""Quick grid over hybrid-search settings on the dev half, outside Lectern (a prototype of what
`lectern eval` measures): FTS5 BM25 (SQLite, the same tokenizer and columns as Lectern's index)
and MiniLM vectors (Lectern's own, read from an eval library, and sentence-transformers' of the
plain text, as bench/eval_peers.py caches them), fused the way `Searcher` fuses them. Settings that win here are then measured
with `lectern eval` itself; only that is reported.

    bench/.venv-st/bin/python bench/eval_tune.py --passages P.jsonl --dataset DIR --library LIB/eval.db \
        --plain-vectors P.jsonl.minilm.npz
"""
import argparse
import collections
import json
import math
import os
import sqlite3
import sys

import numpy as np

STOPWORDS = set("a an and are as at be by do does for from how in is it of on or that the this to was what when where which who why with".split())
QUESTION = set(("can could would should will i me my we you your our they their there its he she his her them if so than then but "
                "into about did has have had been being were am get gets just also explain describe tell mean means happens happen "
                "whose whom these those not no one some any all very").split())


def words(text):
    out, current = [], ""
    for ch in text.lower():
        if ch.isalnum():
            current += ch
        elif current:
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out


def ndcg10(ranking, judged):
    dcg = sum(judged.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranking[:10]))
    ideal = sorted(judged.values(), reverse=True)[:10]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall(ranking, judged, depth):
    relevant = {d for d, g in judged.items() if g > 0}
    return len(relevant & set(ranking[:depth])) / len(relevant) if relevant else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--library")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--only", action="store_true", help="measure only the chosen setting (header weight 0.5, question words, convex 0.3)")
    parser.add_argument("--header-vectors", help="npz cache of sentence-transformers vectors of header + text (made when absent)")
    parser.add_argument("--plain-vectors", help="bench/eval_peers.py's cache of sentence-transformers vectors of the plain text")
    args = parser.parse_args()
    if args.split != "dev" and not args.only:
        sys.exit("the grid looks at the dev half only; --only SETTING measures a chosen setting on another split")
    passages = [json.loads(line) for line in open(args.passages)]
    qrels = collections.defaultdict(dict)
    for i, line in enumerate(open(os.path.join(args.dataset, "qrels", args.split + ".tsv"))):
        if i:
            q, d, g = line.split("\t")
            qrels[q][d] = int(g)
    queries = [q for q in map(json.loads, open(os.path.join(args.dataset, "queries.jsonl"))) if q["_id"] in qrels]

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(text, section, tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO f(rowid, text, section) VALUES (?, ?, ?)",
                   [(i, p["text"], " › ".join(p["section"])) for i, p in enumerate(passages)])
    vec = {}
    lib = sqlite3.connect(args.library) if args.library else None
    for ids, blob in (lib.execute("SELECT passage_ids, vectors FROM vector_blocks") if lib else []):
        ids = np.frombuffer(ids, dtype=np.int64)
        flat = np.frombuffer(blob, dtype=np.float32).reshape(len(ids), -1)
        for i, v in zip(ids, flat):
            vec[int(i)] = v
    # The library's vectors are of the text it embeds (with its header); the peer's are of the plain text.
    variants = {"library": np.stack([vec[p["passage"]] for p in passages])} if vec else {}
    if args.plain_vectors:
        variants["plain"] = np.load(args.plain_vectors)["vectors"]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from eval_peers import sentence_transformer
    model = sentence_transformer()
    if args.header_vectors:
        # What Lectern embeds (ContextualHeader.embedded): the header on a line of its own, then the text.
        if not os.path.exists(args.header_vectors):
            texts = [(" › ".join(p["section"]) + "\n" + p["text"]) if p["section"] else p["text"] for p in passages]
            np.savez(args.header_vectors, vectors=model.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True))
        variants["header"] = np.load(args.header_vectors)["vectors"]
    qvec = model.encode([q["text"] for q in queries], normalize_embeddings=True, convert_to_numpy=True)
    cid = [p["corpus_id"] for p in passages]

    def keyword(text, section_weight, question):
        ws = words(text)
        content = [w for w in ws if w not in STOPWORDS and not (question and w in QUESTION)]
        terms = list(dict.fromkeys(content or ws))
        match = " OR ".join('"%s"' % t for t in terms)
        rows = db.execute("SELECT rowid, -bm25(f, 1.0, ?) FROM f WHERE f MATCH ? ORDER BY 2 DESC LIMIT 300",
                          (section_weight, match)).fetchall()
        return rows

    def documents(order):
        seen, out = set(), []
        for i in order:
            if cid[i] not in seen:
                seen.add(cid[i])
                out.append(cid[i])
                if len(out) == 100:
                    break
        return out

    def measure(rankings):
        n = [ndcg10(rankings[q["_id"]], qrels[q["_id"]]) for q in queries]
        r10 = [recall(rankings[q["_id"]], qrels[q["_id"]], 10) for q in queries]
        return sum(n) / len(n), sum(r10) / len(r10)

    results = []
    kw_cache = {}
    grid = [(0.5, True)] if args.only else [(sw, q) for sw in (0.0, 0.25, 0.5, 1.0, 2.0) for q in (False, True)]
    for sw, question in grid:
        if True:
            kw_cache[(sw, question)] = [keyword(q["text"], sw, question) for q in queries]
            rk = {q["_id"]: documents([i for i, _ in kw_cache[(sw, question)][n]]) for n, q in enumerate(queries)}
            results.append(("keyword sec=%s q=%d" % (sw, question),) + measure(rk))
    for name, vectors in variants.items():
        sem = []
        for n, q in enumerate(queries):
            scores = vectors @ qvec[n]
            order = np.argsort(-scores, kind="stable")[:300]
            sem.append([(int(i), float(scores[i])) for i in order])
        rs = {q["_id"]: documents([i for i, _ in sem[n]]) for n, q in enumerate(queries)}
        results.append(("semantic %s" % name,) + measure(rs))
        for (sw, question), kws in kw_cache.items():
            for k in (() if args.only else (10, 30, 60, 100)):
                for kwt in (0.5, 0.7, 1.0):
                    rh = {}
                    for n, q in enumerate(queries):
                        fused = collections.defaultdict(float)
                        for r, (i, _) in enumerate(kws[n], 1):
                            fused[i] += kwt / (k + r)
                        for r, (i, _) in enumerate(sem[n], 1):
                            fused[i] += 1.0 / (k + r)
                        rh[q["_id"]] = documents(sorted(fused, key=lambda i: (-fused[i], i)))
                    results.append(("hybrid %s sec=%s q=%d rrf k=%d kw=%.1f" % (name, sw, question, k, kwt),) + measure(rh))
            for alpha in ((0.3,) if args.only else (0.2, 0.3, 0.4, 0.5)):
                rh = {}
                for n, q in enumerate(queries):
                    fused = collections.defaultdict(float)
                    for part, weight in ((kws[n], alpha), (sem[n], 1 - alpha)):
                        if not part:
                            continue
                        lo, hi = min(s for _, s in part), max(s for _, s in part)
                        for i, s in part:
                            fused[i] += weight * ((s - lo) / (hi - lo) if hi > lo else 1.0)
                    rh[q["_id"]] = documents(sorted(fused, key=lambda i: (-fused[i], i)))
                results.append(("hybrid %s sec=%s q=%d convex a=%.1f" % (name, sw, question, alpha),) + measure(rh))
    for name, n, r in results:
        print("%-60s nDCG@10 %.4f  R@10 %.4f" % (name, n, r))


if __name__ == "__main__":
    main()
