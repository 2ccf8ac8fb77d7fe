#!/usr/bin/env bash
# Topic summaries against the authors' own (bench/summary_rouge.py): the OpenStax philosophy
# book is ingested (hashing embedder: vectors play no part in a summary), built into a
# curriculum and exported as JSON; every module with a "Summary" section is summarised with
# that section withheld by lectern and its peers (lead, sumy's TextRank, LexRank and LSA), each
# cut to the authors' length in words, and scored with ROUGE-1/2/L. Writes
# bench/results/summary.json. Peers are installed once into bench/.venv-rouge (gitignored).
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
book="$corpus/openstax/introduction-philosophy"
[ -d "$book" ] || { echo "summary bench: $book is absent (set LECTERN_SHARED_CORPUS); skipped"; exit 0; }
lectern=${LECTERN:-.build/release/lectern}
venv=bench/.venv-rouge
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import rouge_score, sumy" 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q rouge-score sumy || { echo "summary bench: could not install rouge-score and sumy"; exit 1; }
fi
work=bench/work/summary
mkdir -p "$work" bench/results
rm -f "$work"/library.db*
"$lectern" ingest "$book" --db "$work/library.db" --embedder hashing > /dev/null || exit 1
"$lectern" curriculum build book --all --db "$work/library.db" > /dev/null || exit 1
"$lectern" curriculum export book --format json -o "$work/book.json" --db "$work/library.db" > /dev/null || exit 1
"$venv/bin/python" bench/summary_rouge.py "$work/book.json" "$lectern" bench/results/summary.json
