#!/usr/bin/env bash
# OCR quality and speed (issue #37): corpora/'s PDFs and a few shared ones rasterised at 300 and
# 150 dpi (plus a rotated and a noisy 300 dpi variant), wrapped back into image-only PDFs with
# img2pdf, read by `lectern extract` and by pytesseract on the same images, scored by word F1
# against pdftotext of the originals (bench/ocr_bench.py). Writes bench/results/ocr.json.
# Installs Debian's `tesseract-ocr` (the command pytesseract runs) when missing, and img2pdf,
# pytesseract and Pillow into bench/.venv-ocr once.
# Targets: word F1 >= 0.97 at 300 dpi and >= 0.93 at 150 dpi on clean pages; lectern's pages/s
# >= pytesseract's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${LECTERN_SHARED_CORPUS:-$root/../shared/corpus}/pdf"
lectern="${LECTERN:-$root/.build/release/lectern}"
venv="$root/bench/.venv-ocr"
work="$root/bench/work/ocr"
[ -x "$lectern" ] || { echo "ocr_bench: $lectern is missing: run \`make release\` first" >&2; exit 1; }
if ! command -v tesseract >/dev/null; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  echo "ocr_bench: installing tesseract-ocr (the command pytesseract runs)"
  $sudo apt-get install -y -qq tesseract-ocr >/dev/null
fi
if ! "$venv/bin/python" -c "import img2pdf, pytesseract, PIL" 2>/dev/null; then
  echo "ocr_bench: installing img2pdf, pytesseract and Pillow into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check img2pdf pytesseract Pillow
fi
pdfs=("$root"/corpora/pdf/*.pdf)
# English shared PDFs of one page each: a paper page, a manual page.
for name in docling-2305.03393v1-pg9.pdf docling-amt_handbook_sample.pdf; do
  [ -f "$corpus/$name" ] && pdfs+=("$corpus/$name")
done
mkdir -p "$work" "$root/bench/results"
"$venv/bin/python" "$root/bench/ocr_bench.py" "$work" "$root/bench/results/ocr.json" "$lectern" "${pdfs[@]}"
