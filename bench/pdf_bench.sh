#!/usr/bin/env bash
# PDF reading speed and memory: pages per second of `lectern extract --json` against poppler's own
# `pdftotext` (the same engine, so the practical limit), measured in one run on the shared PDFs
# and on a 1,000+-page PDF made from them with pdfunite; peak RSS from /usr/bin/time.
# Prints the ratios and writes bench/results/pdf.json. Run by `make bench`, or by hand:
#   bench/pdf_bench.sh            (LECTERN_SHARED_CORPUS overrides ../shared/corpus)
# Targets (issue #3): lectern ≥ 0.8× pdftotext pages/s; peak RSS < 300 MB on the big PDF.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${LECTERN_SHARED_CORPUS:-$root/../shared/corpus}/pdf"
work="$root/bench/work/pdf"
results="$root/bench/results/pdf.json"
runs="${PDF_BENCH_RUNS:-3}"
min_pages="${PDF_BENCH_PAGES:-1000}"

for tool in pdftotext pdfunite pdfinfo /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "pdf_bench: $tool is missing (make setup installs poppler-utils and time)" >&2; exit 1; }
done
[ -d "$corpus" ] || { echo "pdf_bench: $corpus is absent: skipping the PDF benchmark"; exit 0; }

echo "== pdf: building lectern (release)"
build_log=$(cd "$root" && swift build -c release --product lectern 2>&1) || { echo "$build_log" >&2; exit 1; }
lectern="$root/.build/release/lectern"
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

# Best of $runs: prints "seconds max_rss_kb status" for the command after the first argument.
measure() {
  local best="" rss=0 status=0
  for _ in $(seq "$runs"); do
    local start end seconds kb
    start=$(date +%s%N)
    set +e
    /usr/bin/time -f "%M" -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt"
    status=$?
    set -e
    end=$(date +%s%N)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
    kb=$(tail -n 1 "$work/time.txt")
    if [ -z "$best" ] || awk -v s="$seconds" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$seconds; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  echo "$best $rss $status"
}

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

json_rows=""
total_pages=0; total_lectern=0; total_pdftotext=0
printf "%-42s %6s %12s %12s %7s %9s\n" "file" "pages" "lectern p/s" "pdftotext p/s" "ratio" "RSS MB"
for file in "$corpus"/*.pdf "$big"; do
  password="$(password_for "$file")"
  pages=$(pages_of "$file" "$password")
  read -r l_sec l_rss l_status < <(measure "$lectern" extract --json ${password:+--password "$password"} "$file")
  read -r p_sec p_rss _ < <(measure pdftotext -q ${password:+-upw "$password"} "$file" -)
  l_rate=$(awk -v p="$pages" -v s="$l_sec" 'BEGIN { printf "%.1f", p / s }')
  p_rate=$(awk -v p="$pages" -v s="$p_sec" 'BEGIN { printf "%.1f", p / s }')
  ratio=$(awk -v a="$p_sec" -v b="$l_sec" 'BEGIN { printf "%.2f", a / b }')
  name="$(basename "$file")"
  note=""
  [ "$l_status" -ne 0 ] && note="  (lectern: $(head -n 1 "$work/stderr.txt"))"
  printf "%-42s %6d %12s %12s %6sx %9d%s\n" "$name" "$pages" "$l_rate" "$p_rate" "$ratio" $((l_rss / 1024)) "$note"
  row=$(printf '{"file": "%s", "pages": %d, "lectern_seconds": %s, "pdftotext_seconds": %s, "lectern_pages_per_second": %s, "pdftotext_pages_per_second": %s, "ratio": %s, "lectern_peak_rss_mb": %d, "pdftotext_peak_rss_mb": %d, "lectern_exit": %d}' \
    "$name" "$pages" "$l_sec" "$p_sec" "$l_rate" "$p_rate" "$ratio" $((l_rss / 1024)) $((p_rss / 1024)) "$l_status")
  json_rows="${json_rows:+$json_rows,
    }$row"
  if [ "$file" = "$big" ]; then
    big_row="$row"; big_ratio="$ratio"; big_rss=$((l_rss / 1024)); big_rate="$l_rate"; big_p_rate="$p_rate"
  else
    total_pages=$((total_pages + pages))
    total_lectern=$(awk -v a="$total_lectern" -v b="$l_sec" 'BEGIN { print a + b }')
    total_pdftotext=$(awk -v a="$total_pdftotext" -v b="$p_sec" 'BEGIN { print a + b }')
  fi
done
shared_ratio=$(awk -v a="$total_pdftotext" -v b="$total_lectern" 'BEGIN { printf "%.2f", a / b }')

echo "== pdf: shared PDFs one by one ($total_pages pages, each a fresh process): lectern ${shared_ratio}x pdftotext"
echo "== pdf: $big_pages-page PDF: lectern $big_rate pages/s, pdftotext $big_p_rate pages/s: ${big_ratio}x (target >= 0.8x); peak RSS ${big_rss} MB (target < 300 MB)"

cat >"$results" <<EOF
{
  "benchmark": "pdf extraction: lectern extract --json vs pdftotext (poppler-utils), best of $runs runs",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "machine": "$(uname -m), $(nproc) cores",
  "command": "bench/pdf_bench.sh",
  "big_pdf": {"pages": $big_pages, "ratio": $big_ratio, "lectern_pages_per_second": $big_rate, "pdftotext_pages_per_second": $big_p_rate, "lectern_peak_rss_mb": $big_rss},
  "shared_pdfs": {"pages": $total_pages, "ratio": $shared_ratio},
  "targets": {"ratio_at_least": 0.8, "peak_rss_mb_below": 300},
  "files": [
    $json_rows
  ]
}
EOF
echo "== pdf: wrote ${results#$root/}"
