#!/usr/bin/env python3
"""Per-call cost of search on a library of real documents (the whole shared corpus: the
OpenStax book is one document of 1,479 passages, an OCW course one of 993), with `lectern stats`
as the reference call of the same run, since the machines these run on are shared.

Usage: shared_search.py LECTERN --db LIBRARY [--repeats N] [--mcp-calls N] [--out FILE]

Each call kind runs N times in turn with the others; for each: CPU time (user + system, from
wait4) and wall time, p50 and p95 in ms, and p50 as a ratio to `stats`. Then MCP call times
(Tests/Support/mcp_latency.py) on the same library.
"""
import argparse
import json
import os
import subprocess
import sys
import time

QUERIES = ["categorical imperative", "what does the categorical imperative say?", "why does a spinning figure skater speed up",
           "allegory of the cave", "hermitian matrix eigenvalues", "begging the question"]


def timed(command):
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    return (usage.ru_utime + usage.ru_stime) * 1000, wall, os.waitstatus_to_exitcode(status)


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(share * (len(values) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lectern")
    parser.add_argument("--db", required=True)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--mcp-calls", type=int, default=50)
    parser.add_argument("--out")
    args = parser.parse_args()
    db = ["--db", args.db]
    listed = subprocess.run([args.lectern, "curriculum", "list", "--json"] + db, capture_output=True, text=True).stdout
    has_curriculum = bool(json.loads(listed or "[]"))
    kinds = {
        "stats": lambda q: ["stats"] + db,
        "search keyword": lambda q: ["search", q, "--mode", "keyword"] + db,
        "search semantic": lambda q: ["search", q, "--mode", "semantic"] + db,
        "search hybrid": lambda q: ["search", q] + db,
        "context budget=1500": lambda q: ["context", q, "--budget", "1500"] + db,
    }
    if has_curriculum:
        kinds["curriculum find"] = lambda q: ["curriculum", "find", q] + db
    samples = {kind: {"cpu": [], "wall": []} for kind in kinds}
    for command in kinds.values():  # warm the page cache
        timed([args.lectern] + command(QUERIES[0]))
    for repeat in range(args.repeats):
        query = QUERIES[repeat % len(QUERIES)]
        for kind, command in kinds.items():
            cpu, wall, status = timed([args.lectern] + command(query))
            if status not in (0, 1):
                raise SystemExit(f"{kind} {query!r}: exit {status}")
            samples[kind]["cpu"].append(cpu)
            samples[kind]["wall"].append(wall)
    rows = {}
    stats_cpu = percentile(samples["stats"]["cpu"], 0.5)
    stats_wall = percentile(samples["stats"]["wall"], 0.5)
    for kind, got in samples.items():
        row = {f"{measure}_{name}_ms": round(percentile(got[measure], share), 1)
               for measure in ("cpu", "wall") for name, share in (("p50", 0.5), ("p95", 0.95))}
        row["cpu_p50_x_stats"] = round(row["cpu_p50_ms"] / max(stats_cpu, 0.1), 2)
        row["wall_p50_x_stats"] = round(row["wall_p50_ms"] / max(stats_wall, 0.1), 2)
        rows[kind] = row
    report = {"library": args.db, "repeats": args.repeats, "queries": QUERIES, "calls": rows}
    here = os.path.dirname(os.path.abspath(__file__))
    latency = os.path.join(here, "..", "Tests", "Support", "mcp_latency.py")
    if args.mcp_calls > 0:
        out = subprocess.run([sys.executable, latency, args.lectern, "--calls", str(args.mcp_calls), "--db", args.db],
                             capture_output=True, text=True)
        report["mcp"] = json.loads(out.stdout) if out.returncode == 0 else {"error": out.stderr[-500:]}
    text = json.dumps(report, indent=1)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
