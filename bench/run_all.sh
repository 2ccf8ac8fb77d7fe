#!/usr/bin/env bash
# `make bench`: every benchmark in one run, then one table (bench/results/latest.md and .json,
# written by bench/report.py) with each peer beside lectern. Each script still runs alone.
#   bench/run_all.sh            full (about 30 min on 2 cores once the peers are installed)
#   QUICK=1 bench/run_all.sh    about 5 min: 400 MiniLM passages, the 1,000-page PDF read once,
#                               ingest with the hashing embedder, no sentence-transformers
#                               quality rows (the committed eval.json is shown, marked as such)
# Peers are installed once into gitignored venvs under bench/ (.venv-peers, .venv-subs,
# .venv-st, .venv-rouge); their install time is not part of the budget. A step that fails is reported in
# the table and the others still run. BENCH_SKIP="minilm e2e" leaves the steps named out (their
# last result file is shown, with its own date).
set -uo pipefail
cd "$(dirname "$0")/.."
export LECTERN=${LECTERN:-$PWD/.build/release/lectern}
export QUICK=${QUICK:-}
[ -x "$LECTERN" ] || { echo "bench: $LECTERN is missing: run \`make release\` first" >&2; exit 1; }
mkdir -p bench/results bench/work
steps=bench/work/steps.tsv
: > "$steps"

run_step() {
  local name=$1; shift
  local start end status
  case " ${BENCH_SKIP:-} " in *" $name "*) echo "== bench: $name skipped (BENCH_SKIP)"; return 0 ;; esac
  echo "== bench: $name"
  start=$(date +%s)
  "$@"
  status=$?
  end=$(date +%s)
  printf '%s\t%s\t%s\n' "$name" "$status" "$((end - start))" >> "$steps"
  [ "$status" -eq 0 ] || echo "== bench: $name failed (exit $status); going on"
}

run_step pdf bench/pdf_bench.sh
run_step transcripts bench/transcripts_bench.sh
run_step minilm bench/minilm_bench.sh
# The search-speed table (numpy, sqlite-vec, FAISS beside lectern), where its script exists.
if [ -x bench/search_bench.sh ]; then run_step search bench/search_bench.sh; fi
if [ -z "$QUICK" ]; then run_step eval bench/eval_shared.sh; fi
# A library on PostgreSQL beside SQLite (after eval: it copies eval's library into PostgreSQL).
if [ -z "$QUICK" ]; then run_step postgres bench/pg_bench.sh; fi
# Search on the shared corpus's real documents (a book of 1,479 passages in one document).
run_step shared-search bench/shared_search.sh
run_step e2e bench/e2e_bench.sh
run_step summary bench/summary_rouge.sh
run_step ocr bench/ocr_bench.sh

# Where lectern is slower than a peer: profiles of the lectern side of those rows.
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
if [ -d "$corpus/pdf" ]; then
  run_step profile-pdf-one-file bench/profile.sh pdf-one-file "$LECTERN" extract --json "$corpus/pdf/pypdf-multicolumn.pdf"
  [ -f bench/work/pdf/big.pdf ] &&
    run_step profile-pdf-big bench/profile.sh pdf-big "$LECTERN" extract --json bench/work/pdf/big.pdf
fi

[ -f bench/work/minilm-passages.txt ] &&
  run_step profile-minilm bench/profile.sh minilm "$LECTERN" embed --embedder minilm --json < bench/work/minilm-passages.txt

[ -f bench/work/transcripts/lecture.srt ] &&
  run_step profile-transcripts bench/profile.sh transcripts "$LECTERN" extract --json bench/work/transcripts/lecture.srt

python3 bench/report.py bench/results "$steps"
