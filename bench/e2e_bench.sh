#!/usr/bin/env bash
# End to end: `lectern ingest` of the whole shared corpus into a fresh library, then the same
# ingest again with nothing changed (target: at most 5% of the first run's time), then, where the
# binary has them, `lectern curriculum build` and `lectern cards generate` on that library.
# Wall seconds and peak RSS from /usr/bin/time; writes bench/results/e2e.json.
# QUICK=1 ingests with the hashing embedder (seconds, no model); the full run with MiniLM.
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
[ -d "$corpus" ] || { echo "e2e bench: $corpus is absent (set LECTERN_SHARED_CORPUS); skipped"; exit 0; }
lectern=${LECTERN:-.build/release/lectern}
embedder=${E2E_EMBEDDER:-$([ -n "${QUICK:-}" ] && echo hashing || echo minilm)}
work=bench/work/e2e
mkdir -p "$work" bench/results
rm -f "$work"/library.db*

# Runs a step: prints "seconds peak_rss_mb exit_status"; the step's stderr goes to $work/<name>.err.
step() {
  local name=$1; shift
  local start end status
  start=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$work/$name.time" "$@" > "$work/$name.out" 2> "$work/$name.err"
  status=$?
  end=$(date +%s%N)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $(( $(tail -n 1 "$work/$name.time" 2>/dev/null || echo 0) / 1024 )) $status"
}

read -r first_s first_rss first_status < <(step ingest "$lectern" ingest "$corpus" --db "$work/library.db" --embedder "$embedder" --json)
echo "== e2e: ingest of the shared corpus ($embedder): ${first_s}s, peak RSS ${first_rss} MB, exit $first_status"
# Exit 1 means some inputs were not read:
# how many, and the first reason, for the table's note.
failed=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("failed", 0))
except Exception: print(0)' "$work/ingest.out")
first_failure=$(grep -m1 -E "^lectern: " "$work/ingest.err" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')
read -r again_s again_rss again_status < <(step reingest "$lectern" ingest "$corpus" --db "$work/library.db" --json)
share=$(awk -v a="$again_s" -v b="$first_s" 'BEGIN { printf "%.1f", (b > 0 ? 100 * a / b : 0) }')
echo "== e2e: the same ingest again, nothing changed: ${again_s}s (${share}% of the first; target <= 5%), exit $again_status"
passages=$("$lectern" stats --db "$work/library.db" --json 2>/dev/null | python3 -c 'import json,sys
try: print(json.load(sys.stdin).get("passages", "null"))
except Exception: print("null")')

# Rows that light up once the curriculum and cards commands are merged.
optional_json=""
run_optional() {
  local name=$1; shift
  # An unknown subcommand's --help prints the top-level help: look for it in the list instead.
  if "$lectern" --help 2>/dev/null | grep -qE "^ +$1( |\$)"; then
    read -r s rss status < <(step "$name" "$lectern" "$@" --db "$work/library.db")
    echo "== e2e: lectern $*: ${s}s, peak RSS ${rss} MB, exit $status"
    local reason="null"
    [ "$status" -ne 0 ] && reason=$(head -n 1 "$work/$name.err" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')
    optional_json="$optional_json, \"$name\": {\"command\": \"lectern $*\", \"seconds\": $s, \"peak_rss_mb\": $rss, \"exit\": $status, \"error\": $reason}"
  else
    echo "== e2e: lectern $1 is not in this binary: its row is skipped"
    optional_json="$optional_json, \"$name\": null"
  fi
}
run_optional curriculum_build curriculum build shared --all
run_optional cards_generate cards generate shared

cat > bench/results/e2e.json <<JSON
{
  "benchmark": "end to end: lectern ingest of the whole shared corpus, again with nothing changed, curriculum build, cards generate",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "embedder": "$embedder",
  "load_average_at_end": "$(cut -d' ' -f1-3 /proc/loadavg)",
  "passages": $passages,
  "ingest": {"seconds": $first_s, "peak_rss_mb": $first_rss, "exit": $first_status, "failed": $failed, "first_failure": $first_failure},
  "reingest_unchanged": {"seconds": $again_s, "peak_rss_mb": $again_rss, "exit": $again_status, "percent_of_first": $share, "target_percent_at_most": 5}$optional_json
}
JSON
echo "== e2e: wrote bench/results/e2e.json"
