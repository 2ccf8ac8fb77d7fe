#!/usr/bin/env bash
# MiniLM throughput: lectern's Swift + OpenBLAS encoder against sentence-transformers on CPU,
# the same 2,000 real ~200-word passages, the same batch size and thread count, in one run.
# The two take turns slice by slice (a shared machine's load hits both alike). Prints the ratio;
# writes bench/results/minilm.json (with CPU time per passage and the worst cosine between the two).
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
bench/.venv-st/bin/python bench/minilm_bench.py bench/work/minilm-passages.txt .build/release/lectern \
  bench/results/minilm.json --threads "$threads" --batch "$batch"
