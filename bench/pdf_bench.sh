#!/usr/bin/env bash
# PDF reading speed and memory: pages per second of `lectern extract --json` against poppler's own
# `pdftotext` (the same engine, so the practical limit), measured in one run on the shared PDFs
# and on a 1,000+-page PDF made from them with pdfunite; CPU seconds (user + sys) and peak RSS from
# /usr/bin/time. lectern reads files of 48 pages or more with two workers and pdftotext uses one,
# so the wall-time ratio flatters lectern on long files: the CPU-time ratio is printed beside it.
# The process start cost of each tool (`lectern --version`, `pdftotext -v`) is measured too: it is
# most of the time on one-page files. Prints the ratios and a verdict against the targets, and
# writes bench/results/pdf.json. Run by `make bench`, or by hand:
#   bench/pdf_bench.sh            (LECTERN_SHARED_CORPUS overrides ../shared/corpus)
# The unencrypted shared PDFs are also read as one batch (one lectern process for all, one
# pdftotext per file), as a user runs `lectern ingest notes/*.pdf`.
# Targets (issue #3): lectern ≥ 0.8× pdftotext pages/s (wall time); peak RSS < 300 MB on the big PDF.
# Then PyMuPDF and pdfminer.six beside them (bench/pdf_peers.py, in bench/.venv-peers, installed
# once), with each tool's word agreement with pdftotext per file: bench/results/pdf_peers.json.
# QUICK=1: one run each (the big PDF read once, pdfminer.six left out of it).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${LECTERN_SHARED_CORPUS:-$root/../shared/corpus}/pdf"
work="$root/bench/work/pdf"
results="$root/bench/results/pdf.json"
quick="${QUICK:-}"
runs="${PDF_BENCH_RUNS:-$([ -n "$quick" ] && echo 1 || echo 3)}"
min_pages="${PDF_BENCH_PAGES:-1000}"

for tool in pdftotext pdfunite pdfinfo /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "pdf_bench: $tool is missing (make setup installs poppler-utils and time)" >&2; exit 1; }
done
[ -d "$corpus" ] || { echo "pdf_bench: $corpus is absent: skipping the PDF benchmark"; exit 0; }

lectern="${LECTERN:-$root/.build/release/lectern}"
if [ -z "${LECTERN:-}" ]; then
  echo "== pdf: building lectern (release)"
  build_log=$(cd "$root" && swift build -c release --product lectern 2>&1) || { echo "$build_log" >&2; exit 1; }
fi
mkdir -p "$work" "$(dirname "$results")"

# Passwords of the encrypted shared PDFs (from the corpus README).
password_for() {
  case "$(basename "$1")" in
    docling-2206.01062_pg3.pdf) echo 1234 ;;
    pypdf-libreoffice-writer-password.pdf) echo openpassword ;;
    *) echo "" ;;
  esac
}

pages_of() { pdfinfo ${2:+-upw "$2"} "$1" 2>/dev/null | awk '/^Pages:/ {print $2}'; }

# Best of $runs for the command given: prints "wall_seconds cpu_seconds max_rss_kb status", the
# least wall time and the least CPU time (user + sys, 10 ms resolution) of the runs, each on its
# own, and the largest peak RSS.
measure() {
  local best="" best_cpu="" rss=0 status=0
  for _ in $(seq "$runs"); do
    local start end seconds kb cpu
    start=$(date +%s%N)
    set +e
    /usr/bin/time -f "%M %U %S" -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt"
    status=$?
    set -e
    end=$(date +%s%N)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
    read -r kb user sys < <(tail -n 1 "$work/time.txt")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$best" ] || awk -v s="$seconds" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$seconds; fi
    if [ -z "$best_cpu" ] || awk -v s="$cpu" -v b="$best_cpu" 'BEGIN { exit !(s < b) }'; then best_cpu=$cpu; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  echo "$best $best_cpu $rss $status"
}

# a / b to two places, or null when either is 0 (CPU times of tiny files can round to 0.00).
ratio_of() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 == 0 || b + 0 == 0) print "null"; else printf "%.2f", a / b }'; }

# "meets" or "misses" for a ratio against the target.
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r != "null" && r + 0 >= t) ? "meets" : "misses" }'; }

# The big PDF: every unencrypted shared PDF, repeated until there are $min_pages pages.
plain=()
for file in "$corpus"/*.pdf; do
  [ -z "$(password_for "$file")" ] && plain+=("$file")
done
per_round=0
for file in "${plain[@]}"; do per_round=$((per_round + $(pages_of "$file"))); done
rounds=$(( (min_pages + per_round - 1) / per_round ))
big="$work/big.pdf"
parts=()
for _ in $(seq "$rounds"); do parts+=("${plain[@]}"); done
pdfunite "${parts[@]}" "$big" 2>/dev/null
big_pages=$(pages_of "$big")
echo "== pdf: $big_pages-page PDF from $rounds rounds of ${#plain[@]} shared PDFs; best of $runs runs each"

load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "== pdf: load average $load_start (a busy machine slows both tools, lectern's two workers most)"

# What a process costs before it reads a page: on one-page files this is most of the time.
read -r l_start_sec l_start_cpu l_start_rss _ < <(measure "$lectern" --version)
read -r p_start_sec p_start_cpu p_start_rss _ < <(measure pdftotext -v)
echo "== pdf: process start: lectern --version ${l_start_sec}s wall, ${l_start_cpu}s CPU, $((l_start_rss / 1024)) MB;" \
  "pdftotext -v ${p_start_sec}s wall, ${p_start_cpu}s CPU, $((p_start_rss / 1024)) MB"

json_rows=""
files=0; total_pages=0; total_lectern=0; total_pdftotext=0; total_lectern_cpu=0; total_pdftotext_cpu=0
printf "%-40s %5s %11s %13s %6s %8s %8s %6s %7s\n" "file" "pages" "lectern p/s" "pdftotext p/s" "wall" "l CPU s" "p CPU s" "CPU" "RSS MB"
for file in "$corpus"/*.pdf "$big"; do
  password="$(password_for "$file")"
  pages=$(pages_of "$file" "$password")
  read -r l_sec l_cpu l_rss l_status < <(measure "$lectern" extract --json ${password:+--password "$password"} "$file")
  read -r p_sec p_cpu p_rss _ < <(measure pdftotext -q ${password:+-upw "$password"} "$file" -)
  l_rate=$(awk -v p="$pages" -v s="$l_sec" 'BEGIN { printf "%.1f", p / s }')
  p_rate=$(awk -v p="$pages" -v s="$p_sec" 'BEGIN { printf "%.1f", p / s }')
  ratio=$(ratio_of "$p_sec" "$l_sec")
  cpu_ratio=$(ratio_of "$p_cpu" "$l_cpu")
  name="$(basename "$file")"
  workers=1
  [ "$pages" -ge 48 ] && [ "$(nproc)" -ge 2 ] && workers=2
  note=""
  [ "$l_status" -ne 0 ] && note="  (lectern: $(head -n 1 "$work/stderr.txt"))"
  cpu_shown="${cpu_ratio}x"
  [ "$cpu_ratio" = null ] && cpu_shown="n/a"
  printf "%-40s %5d %11s %13s %5sx %8s %8s %6s %7d%s\n" "$name" "$pages" "$l_rate" "$p_rate" "$ratio" "$l_cpu" "$p_cpu" \
    "$cpu_shown" $((l_rss / 1024)) "$note"
  row=$(printf '{"file": "%s", "pages": %d, "lectern_workers": %d, "lectern_seconds": %s, "pdftotext_seconds": %s, "lectern_cpu_seconds": %s, "pdftotext_cpu_seconds": %s, "lectern_pages_per_second": %s, "pdftotext_pages_per_second": %s, "ratio": %s, "cpu_ratio": %s, "lectern_peak_rss_mb": %d, "pdftotext_peak_rss_mb": %d, "lectern_exit": %d}' \
    "$name" "$pages" "$workers" "$l_sec" "$p_sec" "$l_cpu" "$p_cpu" "$l_rate" "$p_rate" "$ratio" "$cpu_ratio" $((l_rss / 1024)) $((p_rss / 1024)) "$l_status")
  json_rows="${json_rows:+$json_rows,
    }$row"
  if [ "$file" = "$big" ]; then
    big_ratio="$ratio"; big_cpu_ratio="$cpu_ratio"; big_rss=$((l_rss / 1024)); big_rate="$l_rate"; big_p_rate="$p_rate"
    big_l_cpu="$l_cpu"; big_p_cpu="$p_cpu"; big_workers="$workers"
  else
    files=$((files + 1))
    total_pages=$((total_pages + pages))
    total_lectern=$(awk -v a="$total_lectern" -v b="$l_sec" 'BEGIN { print a + b }')
    total_pdftotext=$(awk -v a="$total_pdftotext" -v b="$p_sec" 'BEGIN { print a + b }')
    total_lectern_cpu=$(awk -v a="$total_lectern_cpu" -v b="$l_cpu" 'BEGIN { print a + b }')
    total_pdftotext_cpu=$(awk -v a="$total_pdftotext_cpu" -v b="$p_cpu" 'BEGIN { print a + b }')
  fi
done
# The shared PDFs as a user reads a folder of them: one `lectern extract` process for all the
# unencrypted files against one pdftotext process per file (pdftotext reads one file a run).
plain_pages=0
for file in "${plain[@]}"; do plain_pages=$((plain_pages + $(pages_of "$file"))); done
read -r b_l_sec b_l_cpu b_l_rss b_l_status < <(measure "$lectern" extract --json "${plain[@]}")
read -r b_p_sec b_p_cpu _ _ < <(measure bash -c 'for f; do pdftotext -q "$f" - || exit 1; done' _ "${plain[@]}")
batch_ratio=$(ratio_of "$b_p_sec" "$b_l_sec")
batch_cpu_ratio=$(ratio_of "$b_p_cpu" "$b_l_cpu")
batch_verdict=$(verdict "$batch_ratio" 0.8)
echo "== pdf: shared PDFs as one batch (${#plain[@]} unencrypted files, $plain_pages pages; lectern one process, exit $b_l_status):" \
  "lectern ${b_l_sec}s, pdftotext ${b_p_sec}s: ${batch_ratio}x wall (target >= 0.8x: $batch_verdict), ${batch_cpu_ratio}x CPU"

shared_ratio=$(ratio_of "$total_pdftotext" "$total_lectern")
shared_cpu_ratio=$(ratio_of "$total_pdftotext_cpu" "$total_lectern_cpu")
# The same sums with each process's start cost taken off: how the readers compare on the pages.
shared_ratio_after_start=$(ratio_of "$(awk -v t="$total_pdftotext" -v n="$files" -v s="$p_start_sec" 'BEGIN { print t - n * s }')" \
  "$(awk -v t="$total_lectern" -v n="$files" -v s="$l_start_sec" 'BEGIN { print t - n * s }')")
start_share=$(awk -v t="$total_lectern" -v n="$files" -v s="$l_start_sec" 'BEGIN { printf "%.0f", (t > 0 ? 100 * n * s / t : 0) }')
shared_verdict=$(verdict "$shared_ratio" 0.8)
big_verdict=$(verdict "$big_ratio" 0.8)
rss_verdict=$([ "$big_rss" -lt 300 ] && echo meets || echo misses)

echo "== pdf: shared PDFs one by one ($files files, $total_pages pages, each a fresh process): lectern ${shared_ratio}x pdftotext" \
  "wall (target >= 0.8x: $shared_verdict), ${shared_cpu_ratio}x CPU; process start is ${start_share}% of lectern's wall time," \
  "${shared_ratio_after_start}x with each tool's start cost taken off"
echo "== pdf: $big_pages-page PDF: lectern $big_rate pages/s, pdftotext $big_p_rate pages/s: ${big_ratio}x wall" \
  "(target >= 0.8x: $big_verdict; lectern uses $big_workers workers, pdftotext one), ${big_cpu_ratio}x CPU" \
  "(lectern ${big_l_cpu}s, pdftotext ${big_p_cpu}s); peak RSS ${big_rss} MB (target < 300 MB: $rss_verdict)"

cat >"$results" <<EOF
{
  "benchmark": "pdf extraction: lectern extract --json vs pdftotext (poppler-utils), best of $runs runs",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "machine": "$(uname -m), $(nproc) cores",
  "load_average_at_start": "$load_start",
  "load_average_at_end": "$(cut -d' ' -f1-3 /proc/loadavg)",
  "command": "bench/pdf_bench.sh",
  "ratios": "pdftotext time / lectern time: above 1 lectern is faster (ratio: wall time; cpu_ratio: user + sys CPU time)",
  "process_start": {"lectern_version_seconds": $l_start_sec, "lectern_version_cpu_seconds": $l_start_cpu, "pdftotext_version_seconds": $p_start_sec, "pdftotext_version_cpu_seconds": $p_start_cpu},
  "big_pdf": {"pages": $big_pages, "lectern_workers": $big_workers, "ratio": $big_ratio, "cpu_ratio": $big_cpu_ratio, "lectern_cpu_seconds": $big_l_cpu, "pdftotext_cpu_seconds": $big_p_cpu, "lectern_pages_per_second": $big_rate, "pdftotext_pages_per_second": $big_p_rate, "lectern_peak_rss_mb": $big_rss, "ratio_target": "$big_verdict", "rss_target": "$rss_verdict"},
  "shared_pdfs": {"files": $files, "pages": $total_pages, "ratio": $shared_ratio, "cpu_ratio": $shared_cpu_ratio, "ratio_without_process_start": $shared_ratio_after_start, "process_start_percent_of_lectern_time": $start_share, "ratio_target": "$shared_verdict"},
  "shared_pdfs_one_batch": {"files": ${#plain[@]}, "pages": $plain_pages, "lectern_seconds": $b_l_sec, "pdftotext_seconds": $b_p_sec, "lectern_cpu_seconds": $b_l_cpu, "pdftotext_cpu_seconds": $b_p_cpu, "ratio": $batch_ratio, "cpu_ratio": $batch_cpu_ratio, "lectern_peak_rss_mb": $((b_l_rss / 1024)), "lectern_exit": $b_l_status, "ratio_target": "$batch_verdict"},
  "targets": {"ratio_at_least": 0.8, "peak_rss_mb_below": 300},
  "files": [
    $json_rows
  ]
}
EOF
echo "== pdf: wrote ${results#$root/}"

# The Python peers, installed once into a venv of their own (kept between runs).
peers="$root/bench/.venv-peers"
if ! "$peers/bin/python" -c "import pymupdf, pdfminer" 2>/dev/null; then
  echo "== pdf: installing PyMuPDF and pdfminer.six into bench/.venv-peers (once)"
  { [ -x "$peers/bin/python" ] || python3 -m venv "$peers"; } &&
    "$peers/bin/pip" install --quiet --disable-pip-version-check pymupdf pdfminer.six ||
    { echo "pdf_bench: could not install the Python peers; their rows are skipped" >&2; exit 0; }
fi
"$peers/bin/python" "$root/bench/pdf_peers.py" bench "$lectern" "$work" "$root/bench/results/pdf_peers.json" \
  --runs "$runs" ${quick:+--quick} --big "$big" --files "$corpus"/*.pdf
echo "== pdf: wrote bench/results/pdf_peers.json"
