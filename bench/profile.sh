#!/usr/bin/env bash
# Where a command's time goes: `perf record` (user and kernel samples, as far as
# perf_event_paranoid allows), then the shares of the top libraries and functions.
#   bench/profile.sh NAME COMMAND...   writes bench/results/profile-NAME.txt
# Skips with a line when perf is absent or not permitted (it is never installed by the bench).
set -uo pipefail
cd "$(dirname "$0")/.."
name=$1; shift
out=bench/results/profile-$name.txt
command -v perf >/dev/null || { echo "profile: perf is not installed (Debian: linux-perf); $name not profiled"; exit 0; }
mkdir -p bench/work
data=bench/work/perf-$name.data
if ! perf record -q -F 4999 -o "$data" -- "$@" >/dev/null 2>bench/work/perf-$name.err; then
  echo "profile: perf record failed for $name: $(head -n 1 bench/work/perf-$name.err)"; exit 0
fi
{
  echo "# perf record -F 4999 -- $*"
  echo "## by library (share of samples)"
  perf report -i "$data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -E '^ +[0-9.]+%' | head -8
  echo "## by function"
  perf report -i "$data" --no-children --sort dso,symbol --stdio -g none 2>/dev/null | grep -E '^ +[0-9.]+%' | sed -E 's/ +- +- *$//' | cut -c1-150 | head -12
} > "$out"
echo "profile: wrote $out"
