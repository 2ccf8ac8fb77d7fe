#!/usr/bin/env bash
# Retrieval quality on the shared corpus: `lectern eval` (keyword, semantic, hybrid; MiniLM) on
# both halves of the committed evaluation set (eval/shared: dev for tuning, test for reporting),
# and, where bench/.venv-st exists, the peers on the same passages (bench/eval_peers.py:
# rank-bm25, sentence-transformers all-MiniLM-L6-v2, their RRF), every run scored by
# pytrec_eval (bench/eval_oracle.py, `make testdeps`). Writes bench/results/eval.json.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "eval bench: $corpus is absent (set LECTERN_SHARED_CORPUS); skipped"
  exit 0
fi
lectern=${LECTERN:-.build/release/lectern}
# EVAL_EMBEDDER=minilm-bf16 scores another embedder (its own library and bench/results/eval-<name>.json).
embedder=${EVAL_EMBEDDER:-minilm}
work=bench/work/eval
[ "$embedder" = minilm ] || work=bench/work/eval-$embedder
mkdir -p "$work/runs" bench/results
make -s model testdeps
python3 bench/eval_corpus.py --shared "$corpus" --out "$work/dataset" --stats > "$work/set.json"
for split in dev test; do
  # --keep: the library is built once (MiniLM, a few minutes) and reused by the second split.
  "$lectern" eval "$work/dataset" --split "$split" --mode all --embedder "$embedder" --json --keep "$work/library" \
    --run-file "$work/runs/lectern.$split.trec" --dump-passages "$work/passages.jsonl" > "$work/lectern.$split.json"
done
peers=()
# The peers reuse `make fixtures`' sentence-transformers venv, with rank-bm25 and nltk (Porter) added once.
if [ -x bench/.venv-st/bin/python ] && ! bench/.venv-st/bin/python -c "import rank_bm25, nltk" 2>/dev/null; then
  bench/.venv-st/bin/pip install -q --disable-pip-version-check rank-bm25 nltk || true
fi
if [ "$embedder" != minilm ]; then
  echo "eval bench: $embedder: the peers are those of bench/results/eval.json (same passages); not run again"
elif [ -x bench/.venv-st/bin/python ] && bench/.venv-st/bin/python -c "import rank_bm25, nltk, sentence_transformers" 2>/dev/null; then
  for split in dev test; do
    bench/.venv-st/bin/python bench/eval_peers.py --passages "$work/passages.jsonl" --dataset "$work/dataset" \
      --split "$split" --runs "$work/runs" > "$work/peers.$split.json"
  done
  peers=(bm25 minilm rrf)
else
  echo "eval bench: bench/.venv-st (sentence-transformers, rank-bm25) is absent; peers skipped"
fi
for split in dev test; do
  runs=()
  for mode in keyword semantic hybrid; do runs+=("$work/runs/lectern.$split.$mode.trec"); done
  for peer in "${peers[@]}"; do runs+=("$work/runs/$peer.$split.trec"); done
  .venv-tests/bin/python bench/eval_oracle.py "$work/dataset/qrels/$split.tsv" "${runs[@]}" > "$work/oracle.$split.json"
done
EVAL_EMBEDDER=$embedder python3 - "$work" <<'PY'
import json, os, subprocess, sys
work = sys.argv[1]
embedder = os.environ["EVAL_EMBEDDER"]
load = lambda name: json.load(open(os.path.join(work, name)))
out = {"set": load("set.json"), "command": "lectern eval DATASET --split SPLIT --mode all --embedder %s --keep LIBRARY" % embedder,
       "lectern": os.environ.get("LECTERN", ".build/release/lectern"), "gain": "linear (trec_eval)", "splits": {}}
for split in ("dev", "test"):
    lectern, oracle = load("lectern.%s.json" % split), load("oracle.%s.json" % split)
    rows = {}
    for mode in lectern["modes"]:
        check = oracle[os.path.join(work, "runs", "lectern.%s.%s.trec" % (split, mode["mode"]))]["mean"]
        rows["lectern-" + mode["mode"]] = {"ndcg@10": round(mode["ndcg@10"], 4), "recall@100": round(mode["recall@100"], 4),
                                           "mrr@10": round(mode["mrr@10"], 4), "ms_per_query": round(mode["seconds_per_query"] * 1000, 1),
                                           "cpu_ms_per_query": round(mode["cpu_seconds_per_query"] * 1000, 1),
                                           "pytrec_eval_ndcg@10": round(check["ndcg@10"], 4)}
    if os.path.exists(os.path.join(work, "peers.%s.json" % split)):
        peers = load("peers.%s.json" % split)
        for peer in ("bm25", "minilm", "rrf"):
            mean = oracle[os.path.join(work, "runs", "%s.%s.trec" % (peer, split))]["mean"]
            ms = peers["seconds_per_query"].get(peer)
            rows[peer] = {k: round(v, 4) for k, v in mean.items()}
            if ms is not None:
                rows[peer]["ms_per_query"] = round(ms * 1000, 1)
    out["splits"][split] = {"queries": lectern["modes"][0]["queries"], "documents": lectern["documents"],
                            "passages": lectern["passages"], "passage_depth": lectern["passage_depth"], "results": rows}
json.dump(out, open("bench/results/eval.json" if embedder == "minilm" else "bench/results/eval-%s.json" % embedder, "w"), indent=1)
for split, data in out["splits"].items():
    print("%s (%d queries, %d passages)" % (split, data["queries"], data["passages"]))
    for name, row in data["results"].items():
        print("  %-17s nDCG@10 %.4f  Recall@100 %.4f  MRR@10 %.4f  %s ms/query (CPU %s)" % (name, row["ndcg@10"], row["recall@100"],
              row["mrr@10"], row.get("ms_per_query", "-"), row.get("cpu_ms_per_query", "-")))
PY
