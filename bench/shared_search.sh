#!/usr/bin/env bash
# Search on real documents: a library of the whole shared corpus (MiniLM; the OpenStax book is one
# document of 1,479 passages, OCW 8.01SC one of 993) and a curriculum of the book, kept in
# bench/work/shared between runs; then per-call CPU and wall p50/p95 of `search` (3 modes),
# `context`, `curriculum find` and MCP calls, each beside `lectern stats` of the same run
# (bench/shared_search.py). Writes bench/results/shared_search.json.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "shared search bench: $corpus is absent (set LECTERN_SHARED_CORPUS); skipped"
  exit 0
fi
lectern=${LECTERN:-.build/release/lectern}
work=bench/work/shared
mkdir -p "$work" bench/results
make -s model
if [ ! -f "$work/shared.db" ]; then
  printf 'docling-2206.01062_pg3.pdf\t1234\npypdf-libreoffice-writer-password.pdf\topenpassword\n' > "$work/passwords.tsv"
  LECTERN_EMBEDDER=minilm "$lectern" ingest "$corpus" --password-file "$work/passwords.tsv" --db "$work/shared.db" 2>/dev/null || true
  "$lectern" curriculum build philosophy "$corpus/openstax" --db "$work/shared.db" > /dev/null
fi
python3 bench/shared_search.py "$lectern" --db "$work/shared.db" --repeats "${REPEATS:-12}" --mcp-calls "${MCP_CALLS:-50}" \
  --out bench/results/shared_search.json
