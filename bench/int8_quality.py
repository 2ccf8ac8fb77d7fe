"""minilm-int8 against minilm (float32) on the evaluation set's real passages, without a library:
each passage and query embedded by both (`lectern embed --json`), then

- the cosine of each passage's int8 vector to its float32 vector (worst, mean, 1st percentile);
- semantic retrieval nDCG@10 per split, documents ranked by their best passage (as `lectern eval`
  and bench/eval_peers.py rank them), for float32 queries on float32 passages, int8 on int8, and
  the two mixed (what a library of one precision searched with the other would give).

    python3 bench/int8_quality.py PASSAGES.jsonl DATASET LECTERN [--out RESULT.json]

PASSAGES.jsonl is `lectern eval DATASET --dump-passages` ({corpus_id, passage, section, text} a
line; bench/eval_shared.sh writes bench/work/eval/passages.jsonl), DATASET the BEIR folder it
made (queries.jsonl, qrels/SPLIT.tsv). nDCG@10 with linear gain, as trec_eval's ndcg_cut.10.
Needs numpy (bench/.venv-st/bin/python has it).
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

DOCUMENT_DEPTH = 100


def embed(lectern, embedder, texts, env):
    # One text a line: line breaks inside a passage become spaces (MiniLM's tokenizer splits on both).
    lines = "\n".join(text.replace("\n", " ").replace("\r", " ") for text in texts) + "\n"
    run = subprocess.run([lectern, "embed", "--embedder", embedder, "--json"], input=lines, capture_output=True,
                         text=True, check=True, env=env)
    report = json.loads(run.stdout)
    return np.asarray(report["vectors"], dtype=np.float32), report["cpu_seconds"]


def ranking(query, passages, corpus_ids):
    """Corpus ids by their best passage's cosine, best first, DOCUMENT_DEPTH at most."""
    scored = np.argsort(-(passages @ query), kind="stable")
    seen, out = set(), []
    for i in scored:
        if corpus_ids[i] not in seen:
            seen.add(corpus_ids[i])
            out.append(corpus_ids[i])
            if len(out) == DOCUMENT_DEPTH:
                break
    return out


def ndcg10(ranked, judged):
    dcg = sum(judged.get(doc, 0) / math.log2(rank + 2) for rank, doc in enumerate(ranked[:10]))
    ideal = sorted(judged.values(), reverse=True)[:10]
    idcg = sum(gain / math.log2(rank + 2) for rank, gain in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("passages")
    parser.add_argument("dataset")
    parser.add_argument("lectern")
    parser.add_argument("--out")
    args = parser.parse_args()
    records = [json.loads(line) for line in open(args.passages, encoding="utf-8")]
    texts = [record["text"] for record in records]
    corpus_ids = [record["corpus_id"] for record in records]
    queries = {}
    for line in open(os.path.join(args.dataset, "queries.jsonl"), encoding="utf-8"):
        query = json.loads(line)
        queries[query["_id"]] = query["text"]
    query_ids = sorted(queries)
    env = dict(os.environ, LECTERN_EMBEDDER="")
    vectors, cpu = {}, {}
    for embedder in ("minilm", "minilm-int8"):
        vectors[embedder, "passages"], cpu[embedder] = embed(args.lectern, embedder, texts, env)
        vectors[embedder, "queries"], _ = embed(args.lectern, embedder, [queries[q] for q in query_ids], env)
    cosines = sorted(float(c) for c in np.sum(vectors["minilm", "passages"] * vectors["minilm-int8", "passages"], axis=1))
    result = {
        "passages": len(texts),
        "queries": len(query_ids),
        "cpu_seconds_embedding_passages": {name: round(value, 2) for name, value in cpu.items()},
        "cosine_int8_to_float32": {"worst": round(cosines[0], 6), "p01": round(cosines[len(cosines) // 100], 6),
                                   "mean": round(sum(cosines) / len(cosines), 6)},
        "splits": {},
    }
    pairs = {"float32": ("minilm", "minilm"), "int8": ("minilm-int8", "minilm-int8"),
             "int8 queries, float32 passages": ("minilm-int8", "minilm"), "float32 queries, int8 passages": ("minilm", "minilm-int8")}
    for split in ("dev", "test"):
        qrels = {}
        for number, line in enumerate(open(os.path.join(args.dataset, "qrels", split + ".tsv"), encoding="utf-8")):
            fields = line.rstrip("\n").split("\t")
            if number == 0 and fields[0] == "query-id":
                continue
            qrels.setdefault(fields[0], {})[fields[1]] = int(fields[2])
        row = {}
        for name, (query_embedder, passage_embedder) in pairs.items():
            scores = []
            for index, qid in enumerate(query_ids):
                if qid not in qrels:
                    continue
                ranked = ranking(vectors[query_embedder, "queries"][index], vectors[passage_embedder, "passages"], corpus_ids)
                scores.append(ndcg10(ranked, qrels[qid]))
            row[name] = round(sum(scores) / len(scores), 4)
        result["splits"][split] = row
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
