"""trec_eval's figures for TREC run files, through pytrec_eval: the oracle `lectern eval` is checked against.

    python bench/eval_oracle.py QRELS.tsv RUN [RUN ...]   -> JSON {run: {"mean": {...}, "per_query": {qid: {...}}}}

QRELS is BEIR's `query-id corpus-id score` TSV (header line); RUN is `qid Q0 docid rank score tag`.
nDCG@10 is trec_eval's ndcg_cut.10 (linear gain), Recall@100 its recall.100, and MRR@10 its
recip_rank over each query's first 10 lines (trec_eval has no cut for it). The mean is over
every judged query; a query absent from the run scores 0, as in `lectern eval`.
"""
import collections
import json
import sys

import pytrec_eval


def read_qrels(path):
    qrels = collections.defaultdict(dict)
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            fields = line.rstrip("\n").split("\t")
            if number == 0 and fields[0] == "query-id":
                continue
            if len(fields) == 3:
                qrels[fields[0]][fields[1]] = int(fields[2])
    return dict(qrels)


def read_run(path):
    run = collections.defaultdict(list)
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) == 6:
                run[fields[0]].append((int(fields[3]), fields[2], float(fields[4])))
    return {q: [(doc, score) for _, doc, score in sorted(rows)] for q, rows in run.items()}


def evaluate(qrels, ranked):
    run = {q: dict(rows) for q, rows in ranked.items()}
    top10 = {q: dict(rows[:10]) for q, rows in ranked.items()}
    deep = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100"}).evaluate(run)
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top10)
    per_query = {}
    for query in qrels:
        per_query[query] = {
            "ndcg@10": deep.get(query, {}).get("ndcg_cut_10", 0.0),
            "recall@100": deep.get(query, {}).get("recall_100", 0.0),
            "mrr@10": rr.get(query, {}).get("recip_rank", 0.0),
        }
    count = max(len(per_query), 1)
    mean = {m: sum(v[m] for v in per_query.values()) / count for m in ("ndcg@10", "recall@100", "mrr@10")}
    return {"mean": mean, "per_query": per_query}


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    qrels = read_qrels(argv[1])
    print(json.dumps({path: evaluate(qrels, read_run(path)) for path in argv[2:]}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv)
