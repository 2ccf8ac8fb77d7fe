"""Per-call CPU and wall of `lectern` on one (large) library, on a loaded machine: each call's
user+system CPU seconds (from the kernel's accounting of the child) and its wall time as a
ratio to a `lectern stats` call made in the same run; and the in-process keyword, semantic and
hybrid searches (`lectern search --stdin --timings`), p50 and p95. The queries are the search
bench's (2-3 words of its 400 most common).

    python3 bench/scale_calls.py --lectern .build/debug/lectern --db LIBRARY.db [--calls 20]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402


def call(command, environment, stdin=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, input=stdin, capture_output=True, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: {result.stderr.decode()[-400:]}")
    return wall, cpu, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--modes", default="stats,keyword,semantic,hybrid")
    parser.add_argument("--inprocess", default="keyword,semantic,hybrid")
    args = parser.parse_args()
    environment = dict(os.environ) | {"LECTERN_EMBEDDER": "hashing", "NO_COLOR": "1"}
    qs = search_bench.queries(max(args.calls, 40))
    rows = {}
    for mode in [m for m in args.modes.split(",") if m]:
        walls, cpus = [], []
        for i in range(args.calls):
            if mode == "stats":
                command = [args.lectern, "stats", "--db", args.db]
            else:
                command = [args.lectern, "search", qs[i], "--mode", mode, "-k", "10", "--json", "--db", args.db]
            wall, cpu, _ = call(command, environment)
            walls.append(wall)
            cpus.append(cpu)
        rows[mode] = {"wall": search_bench.summary(walls), "cpu": search_bench.summary(cpus)}
    for mode in [m for m in args.inprocess.split(",") if m]:
        command = [args.lectern, "search", "--stdin", "--timings", "--mode", mode, "-k", "10", "--json", "--db", args.db]
        # CPU per query in process: the whole session's less a session of the first query alone
        # (process start, the first query's loading), over the other queries.
        _, first_cpu, _ = call(command, environment, stdin=(qs[0] + "\n").encode())
        _, cpu, result = call(command, environment, stdin=("\n".join(qs) + "\n").encode())
        timings = [json.loads(line) for line in result.stderr.decode().splitlines() if line.startswith("{")][1:]
        rows["in-process " + mode] = {"cpu_ms_per_query": round((cpu - first_cpu) * 1000 / max(len(qs) - 1, 1), 2),
                                      "total": search_bench.summary([t["total_ms"] / 1000 for t in timings]),
                                      "without embedding": search_bench.summary([(t["total_ms"] - t["embedding_ms"]) / 1000 for t in timings])}
    stats_wall = rows.get("stats", {}).get("wall", {}).get("p50_ms")
    for name, row in rows.items():
        if "wall" in row:
            ratio = f"   wall/stats {row['wall']['p50_ms'] / stats_wall:.2f}" if stats_wall else ""
            print(f"{name:22} CPU p50 {row['cpu']['p50_ms']:8.1f} p95 {row['cpu']['p95_ms']:8.1f} ms   "
                  f"wall p50 {row['wall']['p50_ms']:8.1f} p95 {row['wall']['p95_ms']:8.1f} ms{ratio}")
        else:
            print(f"{name:22} CPU {row['cpu_ms_per_query']:7.2f} ms a query; wall p50 {row['total']['p50_ms']:8.2f} p95 {row['total']['p95_ms']:8.2f} ms   without embedding "
                  f"p50 {row['without embedding']['p50_ms']:.2f} p95 {row['without embedding']['p95_ms']:.2f}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
