"""recall@10 and latency of a PostgreSQL library's HNSW index per setting (issue 32): the index's
m and ef_construction, halfvec or vector, and the candidates' depth (ef_search the same), on one
library that bench/pg_bench.sh padded and left in its server (a database `padded_100000`).

For each index setting the index `passages_embedding` is dropped and built again (its build time
and size reported), then every query is asked as Lectern asks it (`nearestPassages`: `depth`
candidates from the index with ef_search `depth` and the iterative scan, re-ranked by their
float32 cosine) in one psql session, each statement timed by psql (`\\timing`: the round trip,
the 384 numbers of the query parsed included). The exact top 10 is computed here from the
library's float32 vectors (read once); a hit counts when its cosine reaches the exact tenth's
(less 1e-6: a tie is not a miss).

Three kinds of query (bench/pg_bench.py's `query_vectors`): `text`, the shared eval set's
questions as the library's embedder (`--embedder`, hashing by default) makes them; `words`, the
search bench's queries (two or three of the padded notes' common words); `midpoints`, the
normalised sum of two stored vectors. The last setting listed is the one left in place: list
Lectern's own last (`PostgresLibrary.embeddingIndex`).

    python3 bench/hnsw_sweep.py --url URL/padded_100000 --psql PSQL --lectern .build/release/lectern \\
        --settings halfvec:16:64,halfvec:32:128 --depths 100,200,400 --out bench/results/hnsw-100k.json
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_bench import Server, query_vectors, scrubbed  # noqa: E402
from search_bench import summary  # noqa: E402


def stored_vectors(server, url):
    """The passages' ids and float32 vectors (`exact`), read as text once."""
    out = subprocess.run([server.psql, "-X", "-q", "-A", "-t", "-F", " ", "-d", url, "-c",
                          "copy (select id, exact from passages where exact is not null order by id) to stdout"],
                         capture_output=True, check=True).stdout.decode()
    ids, rows = [], []
    for line in out.splitlines():
        identifier, vector = line.split("\t")
        ids.append(int(identifier))
        rows.append(numpy.array(vector[1:-1].split(","), dtype=numpy.float32))
    matrix = numpy.vstack(rows)
    norms = numpy.linalg.norm(matrix.astype(numpy.float64), axis=1)
    return numpy.array(ids), matrix, norms


def cosines(matrix, norms, vector):
    v = numpy.asarray(vector, dtype=numpy.float64)
    return (matrix.astype(numpy.float64) @ v) / (norms * numpy.linalg.norm(v))


def index_sql(kind, m, ef_construction, dimension):
    column = "embedding::halfvec" if kind == "halfvec" else "exact::vector"
    condition = "vector_dims(embedding)" if kind == "halfvec" else "vector_dims(exact)"
    return (f"create index passages_embedding on passages using hnsw (({column}({dimension})) {kind}_cosine_ops) "
            f"with (m = {m}, ef_construction = {ef_construction}) where {condition} = {dimension}")


def candidates_sql(kind, dimension, vector, depth):
    column = "embedding::halfvec" if kind == "halfvec" else "exact::vector"
    condition = "vector_dims(embedding)" if kind == "halfvec" else "vector_dims(exact)"
    literal = "[" + ",".join(repr(float(x)) for x in vector) + "]"
    return (f"with candidates as (select id, exact from passages where {condition} = {dimension} "
            f"order by {column}({dimension}) <=> '{literal}'::{kind}({dimension}) limit {depth}) "
            f"select id from candidates order by exact <=> '{literal}'::vector, id limit 10;")


def ask(server, url, kind, dimension, vectors, depth):
    """Each vector's top 10 and psql's time for it, in one session."""
    script = [f"set hnsw.ef_search = {min(depth, 1000)};", "set hnsw.iterative_scan = relaxed_order;", "\\timing on"]
    for n, vector in enumerate(vectors):
        script += [f"\\echo QUERY {n}", candidates_sql(kind, dimension, vector, depth)]
    result = subprocess.run([server.psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url],
                            input="\n".join(script).encode(), capture_output=True)
    if result.returncode != 0:
        raise SystemExit(scrubbed(f"hnsw sweep: psql failed: {result.stderr.decode()[-600:]}"))
    tops, times, current = [], [], None
    for line in result.stdout.decode().splitlines():
        if line.startswith("QUERY "):
            current = []
            tops.append(current)
        elif line.startswith("Time: "):
            if current is not None:
                times.append(float(re.match(r"Time: ([0-9.]+) ms", line).group(1)) / 1000)
        elif line.strip() and current is not None:
            current.append(int(line))
    return tops, times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the padded library's database")
    parser.add_argument("--psql", required=True)
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--settings", default="halfvec:16:64", help="kind:m:ef_construction, comma-separated")
    parser.add_argument("--depths", default="100,200,400")
    parser.add_argument("--recall-queries", type=int, default=50)
    parser.add_argument("--maintenance-mem", default="2GB")
    parser.add_argument("--embedder", default="hashing", help="the library's embedder, which embeds the text queries")
    parser.add_argument("--questions", help="the text queries, JSON lines with a `text` each (default: the shared eval set's)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    server = Server(args.url, args.psql)
    dimension = 384
    started = time.perf_counter()
    ids, matrix, norms = stored_vectors(server, args.url)
    print(f"hnsw sweep: {len(ids)} vectors read in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    kinds = query_vectors(server, args.url, os.path.abspath(args.lectern), args.recall_queries, embedder=args.embedder, questions=args.questions)
    exact = {}
    position = {int(i): n for n, i in enumerate(ids)}
    for name, vectors in kinds.items():
        for vector in vectors:
            scores = cosines(matrix, norms, vector)
            tenth = scores[numpy.lexsort((ids, -scores))[9]]
            exact.setdefault(name, []).append((scores, tenth))
    results = {"benchmark": "HNSW settings on a padded PostgreSQL library", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "machine": f"{os.uname().machine}, {os.cpu_count()} cores", "cpu": cpu_model(),
               "passages": len(ids), "embedder": args.embedder, "questions": args.questions or "eval/shared/queries.jsonl", "queries": {k: len(v) for k, v in kinds.items()},
               "gap_10th_11th": {}, "settings": []}
    for name, rows in exact.items():
        gaps = []
        for scores, _ in rows:
            best = numpy.sort(scores)[::-1]
            gaps.append(float(best[9] - best[10]))
        results["gap_10th_11th"][name] = {"median": round(float(numpy.median(gaps)), 5), "min": round(float(min(gaps)), 6)}
    for setting in args.settings.split(","):
        kind, m, ef_construction = setting.split(":")
        server.sql("drop index if exists passages_embedding", args.url)
        load = os.getloadavg()[0]
        start = time.perf_counter()
        server.sql(f"set maintenance_work_mem = '{args.maintenance_mem}'; " + index_sql(kind, int(m), int(ef_construction), dimension), args.url)
        build = time.perf_counter() - start
        size = int(server.sql("select pg_relation_size('passages_embedding')", args.url))
        row = {"index": kind, "m": int(m), "ef_construction": int(ef_construction), "build_seconds": round(build, 1),
               "index_bytes": size, "load_at_build": round(load, 2), "depths": {}}
        print(f"hnsw sweep: {setting}: built in {build:.1f} s, {size / 1e6:.0f} MB (load {load:.1f})", file=sys.stderr, flush=True)
        for depth in (int(d) for d in args.depths.split(",")):
            row["depths"][depth] = {}
            for name, vectors in kinds.items():
                load = os.getloadavg()[0]
                tops, times = ask(server, args.url, kind, dimension, vectors, depth)
                found = 0
                for top, (scores, tenth) in zip(tops, exact[name]):
                    found += sum(1 for i in top if scores[position[i]] >= tenth - 1e-6)
                recall = round(found / (10 * len(vectors)), 4)
                row["depths"][depth][name] = {"recall_at_10": recall, "psql": summary(times), "load": round(load, 2)}
                print(f"hnsw sweep: {setting} depth {depth} {name}: recall@10 {recall}, p50 {summary(times)['p50_ms']:.1f} ms "
                      f"p95 {summary(times)['p95_ms']:.1f} ms (load {load:.1f})", file=sys.stderr, flush=True)
        results["settings"].append(row)
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)
            f.write("\n")


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


if __name__ == "__main__":
    main()
