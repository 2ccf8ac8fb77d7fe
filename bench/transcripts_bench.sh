#!/usr/bin/env bash
# Transcript reading: `lectern extract` (SRT and WebVTT into timed sentences) against pysubs2 on
# a 10-hour lecture laid end to end from the shared corpus's real subtitles, in one run.
# Prints the ratio; writes bench/results/transcripts.json (with lectern's peak memory).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
if [ ! -d "$corpus/transcripts" ]; then
  echo "transcripts bench: $corpus/transcripts is absent (set LECTERN_SHARED_CORPUS); skipped"
  exit 0
fi
venv=bench/.venv-subs
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pysubs2" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "pysubs2>=1.6,<2"
fi
mkdir -p bench/work bench/results
"$venv/bin/python" bench/transcripts_bench.py "$corpus" .build/release/lectern bench/work/transcripts \
  bench/results/transcripts.json --hours "${TRANSCRIPTS_BENCH_HOURS:-10}"
