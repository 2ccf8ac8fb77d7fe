#!/usr/bin/env bash
# MiniLM throughput: lectern's Swift + OpenBLAS encoder against sentence-transformers on CPU,
# the same 2,000 real ~200-word passages, the same batch size and thread count, in one run.
# Prints the ratio; writes bench/results/minilm.json (with the worst cosine between the two).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "minilm bench: $corpus is absent (set LECTERN_SHARED_CORPUS); skipped"
  exit 0
fi
passages=${MINILM_BENCH_PASSAGES:-2000}
batch=${MINILM_BENCH_BATCH:-32}
threads=$(nproc)
make -s model bench/.venv-st/.installed
mkdir -p bench/work bench/results
python3 bench/corpus_passages.py "$corpus" --windows "$passages" > bench/work/minilm-passages.txt
OPENBLAS_NUM_THREADS=1 .build/release/lectern embed --embedder minilm --batch "$batch" --json \
  < bench/work/minilm-passages.txt > bench/work/minilm-lectern.json
bench/.venv-st/bin/python bench/minilm_bench.py bench/work/minilm-passages.txt bench/work/minilm-lectern.json \
  bench/results/minilm.json --threads "$threads" --batch "$batch"
