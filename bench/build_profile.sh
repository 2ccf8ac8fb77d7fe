#!/bin/bash
# What a fresh clone's release build spends its CPU on, target by target: clones REPO (default:
# this checkout) into a new folder and builds each target alone, in dependency order, under
# /usr/bin/time, so that each line is one target's own compiling (user CPU is the figure to
# compare on a busy machine; wall time is only meaningful on a quiet one).
#   bench/build_profile.sh [REPO] [TARGET…]
set -u
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}; shift || true
targets=${*:-CDigest CGemm CVectorScan CTOML TOMLKit GRDB ArgumentParser Lectern lectern MCP lectern-mcp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone" && cd "$work/clone" || exit 1
export TMPDIR=$work
/usr/bin/time -f "%U %e" -o "$work/t" swift package resolve >/dev/null 2>&1
printf '%-16s %10s %10s\n' target "user CPU" wall
printf '%-16s %9ss %9ss\n' resolve $(cat "$work/t")
for target in $targets; do
  /usr/bin/time -f "%U %e" -o "$work/t" swift build -c release --target "$target" >"$work/log" 2>&1 || { tail -5 "$work/log"; exit 1; }
  printf '%-16s %9ss %9ss\n' "$target" $(cat "$work/t")
done
