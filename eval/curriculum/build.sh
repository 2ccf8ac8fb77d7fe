#!/bin/sh
# Builds the six curricula graded in eval/curriculum/README.md (offline, hashing embedder), one
# library each, and exports each as JSON:  eval/curriculum/build.sh LECTERN SHARED_CORPUS OUT
#   eval/curriculum/build.sh .build/debug/lectern ../shared/corpus /tmp/grade
set -e
lectern=$1 corpus=$2 out=$3
mkdir -p "$out"
build() {  # name, sources…
    name=$1; shift
    rm -f "$out/$name.db" "$out/$name.db-wal" "$out/$name.db-shm"
    "$lectern" ingest "$@" --db "$out/$name.db" --embedder hashing > "$out/$name.ingest.log" 2>&1
    "$lectern" curriculum build "$name" "$@" --db "$out/$name.db" > "$out/$name.build.log" 2>&1
    "$lectern" curriculum export "$name" --format json -o "$out/$name.json" --db "$out/$name.db"
}
build book "$corpus/openstax/introduction-philosophy"
build mechanics "$corpus/ocw/8-01sc-classical-mechanics-fall-2016_parsed.json"
build corpora corpora
build hf "$corpus"/transcripts/*.srt
build geotopo "$corpus/pdf/pypdf-GeoTopo-komprimiert.pdf"
build slides "$corpus/pdf/mtheme-demo-slides.pdf"
