#!/usr/bin/env bash
# Search speed (issue 20): `lectern search` calls (keyword, semantic, hybrid) against `lectern
# stats`, the in-process search (`lectern search --stdin`, query embedding apart), and exact-scan
# peers on the same vectors (numpy in-process and one-shot from .npy, sqlite-vec vec0, FAISS
# IndexFlatIP), on the demo library and on libraries padded through `lectern ingest` (hashing
# embedder) to 10k, 100k and 1M passages (QUICK=1: without 1M). Writes bench/results/search.json.
set -euo pipefail
cd "$(dirname "$0")/.."
lectern=${LECTERN:-.build/release/lectern}
if [ ! -x "$lectern" ]; then
  echo "search bench: $lectern is not built (make release); skipped"
  exit 0
fi
# Debian's python3 loads SQLite extensions (pyenv's cannot); the peers go in a folder of their own.
python=/usr/bin/python3
peers=bench/.venv-peers
if ! PYTHONPATH=$peers $python -c "import numpy, faiss, sqlite_vec" 2>/dev/null; then
  $python -m pip install -q --disable-pip-version-check --target "$peers" numpy faiss-cpu sqlite-vec \
    || echo "search bench: could not install the peers (numpy, faiss-cpu, sqlite-vec); they are reported as missing"
fi
sizes=10000,100000,1000000
if [ -n "${QUICK:-}" ]; then sizes=10000,100000; fi
PYTHONPATH=$peers exec $python bench/search_bench.py --lectern "$lectern" --work bench/work/search \
  --out bench/results/search.json --sizes "${SIZES:-$sizes}"
