"""Search speed: `lectern search` calls, the in-process search (`lectern search --stdin`) and
exact-scan peers on the same vectors (numpy in-process and one-shot, sqlite-vec vec0, FAISS
IndexFlatIP), on libraries padded THROUGH `lectern ingest` (synthetic notes, the hashing
embedder) to 10k, 100k and 1M passages, and on the demo library (corpora/, MiniLM). SEARCH_BENCH_PAD=1: the 100k and 1M libraries are the
10k one padded by bench/pad_library.py (minutes instead of a quarter of an hour at 1M).

Run by bench/search_bench.sh with Debian's /usr/bin/python3 (it can load SQLite extensions);
the peers come from bench/.venv-peers (pip --target). Writes bench/results/search.json and
prints a table with the ratios the issue sets as targets.
"""
import argparse
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import time

WORDS = None


def vocabulary():
    """A fixed vocabulary: a few hundred real study words and thousands of made-up ones, so
    that keyword queries match a realistic share of passages."""
    global WORDS
    if WORDS is None:
        rng = random.Random(7)
        real = ("energy entropy enzyme cell membrane protein gradient derivative integral limit "
                "theorem proof matrix vector eigenvalue photon electron field force momentum "
                "equilibrium reaction catalyst acid base oxidation reduction philosophy ethics "
                "argument premise conclusion fallacy history empire revolution economy market "
                "price demand supply function variable probability distribution sample variance "
                "algorithm graph tree network signal frequency wave particle quantum spin").split()
        syllables = ["ka", "lo", "mi", "ren", "tos", "vi", "dra", "pen", "qua", "sil", "mor", "tek", "zu", "bal", "cor", "fen"]
        made = set()
        while len(made) < 6000:
            made.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
        WORDS = real + sorted(made)
    return WORDS


def write_notes(folder, first, count, per_file=1000):
    """`count` passages as markdown sections of ~90 words, `per_file` a file."""
    words = vocabulary()
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(first)
    for start in range(first, first + count, per_file):
        lines = [f"# Notes {start // per_file}\n"]
        for i in range(start, min(start + per_file, first + count)):
            # Zipf-like: a few words are common, most are rare.
            text = " ".join(words[min(int(rng.paretovariate(0.6)) - 1, len(words) - 1)] if rng.random() < 0.5
                            else rng.choice(words) for _ in range(90))
            lines.append(f"## Section {i}\n\n{text.capitalize()}.\n")
        with open(os.path.join(folder, f"notes-{start // per_file:05d}.md"), "w") as f:
            f.write("\n".join(lines))


def env(work):
    e = dict(os.environ)
    e.pop("LECTERN_CONFIG", None)
    e["XDG_CONFIG_HOME"] = os.path.join(work, "config-home")
    e["XDG_DATA_HOME"] = os.path.join(work, "data-home")
    e["NO_COLOR"] = "1"
    return e


def timed(command, environment, stdin=None):
    """Wall seconds and peak RSS (KB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    out, err = process.communicate(stdin)
    elapsed = time.perf_counter() - start
    # The child is reaped by communicate(); its rusage is folded into RUSAGE_CHILDREN.
    # A search that finds nothing exits 1 (docs/commands.md's exit codes), as grep does: a result.
    nothing_found = process.returncode == 1 and "search" in command[1:2]
    if process.returncode != 0 and not nothing_found:
        raise SystemExit(f"search bench: {' '.join(command)} failed: {err.decode()[-400:]}")
    return elapsed, out, err


def peak_rss(command, environment):
    """Peak RSS (KB) of one run of `command`, by GNU time."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, env=environment, capture_output=True)
    return int(result.stderr.decode().strip().splitlines()[-1])


def pct(values, p):
    values = sorted(values)
    if not values:
        return None
    index = min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))
    return values[index]


def summary(seconds):
    ms = [s * 1000 for s in seconds]
    return {"p50_ms": round(pct(ms, 50), 2), "p95_ms": round(pct(ms, 95), 2), "n": len(ms)}


def queries(count, seed=11):
    rng = random.Random(seed)
    words = vocabulary()
    return [" ".join(rng.choice(words[:400]) for _ in range(rng.randint(2, 3))) for _ in range(count)]


def cpu_call(command, environment):
    """Wall and CPU (user + system) seconds of one call: on a shared machine the CPU is the
    figure that does not depend on the load."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = timed(command, environment)[0]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def timed_calls(commands, environment):
    calls = [cpu_call(command, environment) for command in commands]
    cpu = summary([c for _, c in calls])
    return summary([s for s, _ in calls]) | {"cpu_p50_ms": cpu["p50_ms"], "cpu_p95_ms": cpu["p95_ms"]}


def cli_rows(lectern, db, environment, qs, calls):
    rows = {}
    rows["stats"] = timed_calls([[lectern, "stats", "--db", db]] * calls, environment) | {"rss_kb": peak_rss([lectern, "stats", "--db", db], environment)}
    for mode in ("keyword", "semantic", "hybrid"):
        rows[mode] = timed_calls([[lectern, "search", q, "--mode", mode, "-k", "10", "--json", "--db", db] for q in qs[:calls]], environment) \
            | {"rss_kb": peak_rss([lectern, "search", qs[0], "--mode", mode, "-k", "10", "--db", db], environment)}
    return rows


def in_process(lectern, db, environment, qs):
    rows = {}
    for mode in ("keyword", "semantic", "hybrid"):
        rss_file = db + ".rss"
        command = ["/usr/bin/time", "-f", "%M", "-o", rss_file,
                   lectern, "search", "--stdin", "--timings", "--mode", mode, "-k", "10", "--json", "--db", db]
        _, out, err = timed(command, environment, stdin=("\n".join(qs) + "\n").encode())
        with open(rss_file) as f:
            rss = int(f.read().strip().splitlines()[-1])
        os.remove(rss_file)
        timings = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
        timings = timings[1:]  # the first query loads the model and the vectors
        rows[mode] = {
            "search": summary([t["total_ms"] / 1000 for t in timings]),
            "embedding": summary([t["embedding_ms"] / 1000 for t in timings]),
            "search_without_embedding": summary([(t["total_ms"] - t["embedding_ms"]) / 1000 for t in timings]),
            "rss_kb": rss,
        }
    return rows


def build_sidecar(lectern, db, environment, query):
    """The vector sidecar (`<library>-vectors`, written by the first semantic search of a library
    of at least `search.sidecar_vectors` vectors) made anew before the calls are timed, so that
    they read it: the seconds of that first call (its scan of the library, and the sidecar written
    from what it read), its CPU and the sidecar's size; none for a smaller library."""
    path = db + "-vectors"
    for leftover in (path, path + ".tmp"):
        if os.path.exists(leftover):
            os.remove(leftover)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = timed([lectern, "search", query, "--mode", "semantic", "-k", "10", "--json", "--db", db], environment)[0]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not os.path.exists(path):
        return None
    return {"build_seconds": round(seconds, 2), "build_cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
            "bytes": os.path.getsize(path)}


def load_vectors(db):
    import numpy as np
    c = sqlite3.connect(db)
    ids, blocks = [], []
    for passage_ids, vectors, dimension in c.execute("SELECT passage_ids, vectors, dimension FROM vector_blocks ORDER BY id"):
        ids.append(np.frombuffer(passage_ids, dtype="<i8"))
        blocks.append(np.frombuffer(vectors, dtype="<f4").reshape(-1, dimension))
    compact_ids, scales, codes = [], [], []
    for i, s, k, dimension in c.execute("SELECT ids, scales, codes, dimension FROM compact_vector_blocks WHERE vector_set = 'passages' ORDER BY block_id"):
        compact_ids.append(np.frombuffer(i, dtype="<i8"))
        scales.append(np.frombuffer(s, dtype="<f4"))
        codes.append(np.frombuffer(k, dtype=np.int8).reshape(-1, dimension))
    c.close()
    return (np.concatenate(ids), np.ascontiguousarray(np.concatenate(blocks)),
            np.concatenate(compact_ids), np.concatenate(scales), np.concatenate(codes))


def peers(db, work, calls):
    import numpy as np
    ids, matrix, cids, scales, codes = load_vectors(db)
    rng = np.random.default_rng(3)
    # Queries near the stored vectors: the sum of two stored vectors, normalised.
    picks = rng.integers(0, len(matrix), size=(calls, 2))
    qs = matrix[picks[:, 0]] + matrix[picks[:, 1]]
    qs /= np.linalg.norm(qs, axis=1, keepdims=True)
    qs = qs.astype(np.float32)
    result = {"vectors": int(len(matrix))}

    def exact(q):
        scores = matrix @ q
        top = np.argpartition(-scores, 10)[:10]
        return top[np.argsort(-scores[top])]

    seconds = []
    for q in qs:
        start = time.perf_counter()
        exact(q)
        seconds.append(time.perf_counter() - start)
    result["numpy_inprocess"] = summary(seconds[1:])

    npy = os.path.join(work, "vectors.npy")
    np.save(npy, matrix)
    qfile = os.path.join(work, "query.npy")
    np.save(qfile, qs[0])
    script = ("import numpy as np, sys\nm = np.load(sys.argv[1]); q = np.load(sys.argv[2])\n"
              "s = m @ q; t = np.argpartition(-s, 10)[:10]; print(t[np.argsort(-s[t])])\n")
    one_shot = [timed([sys.executable, "-c", script, npy, qfile], dict(os.environ))[0] for _ in range(min(calls, 10))]
    result["numpy_one_shot"] = summary(one_shot)

    # recall@10 of the compact scan (the stored int8 codes, the query as int16, the best 200
    # re-ranked in float32: what Searcher does for k = 10 with its 100-deep ranking).
    order = np.argsort(cids)
    assert np.array_equal(cids[order], np.sort(ids))
    position = {int(i): n for n, i in enumerate(ids)}
    found = 0
    codes32 = codes.astype(np.int32)
    for q in qs:
        truth = set(ids[exact(q)].tolist())
        scale = np.abs(q).max() / 8191
        q16 = np.rint(q / scale).astype(np.int32)
        approx = (codes32 @ q16) * scales * scale
        candidates = np.argpartition(-approx, 200)[:200]
        rerank = np.array([matrix[position[int(cids[c])]] @ q for c in candidates])
        best = cids[candidates[np.argsort(-rerank)[:10]]]
        found += len(truth & set(best.tolist()))
    result["compact_recall_at_10"] = round(found / (10 * len(qs)), 4)

    try:
        import faiss
        index = faiss.IndexFlatIP(matrix.shape[1])
        index.add(matrix)
        seconds = []
        for q in qs:
            start = time.perf_counter()
            index.search(q.reshape(1, -1), 10)
            seconds.append(time.perf_counter() - start)
        result["faiss_flat_ip"] = summary(seconds[1:])
    except Exception as error:  # noqa: BLE001 - a missing peer is reported, not fatal
        result["faiss_flat_ip"] = {"error": str(error)}

    try:
        import sqlite_vec
        vec_db = os.path.join(work, "vec0.db")
        if os.path.exists(vec_db):
            os.remove(vec_db)
        c = sqlite3.connect(vec_db)
        c.enable_load_extension(True)
        sqlite_vec.load(c)
        c.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{matrix.shape[1]}])")
        for start in range(0, len(matrix), 10000):
            c.executemany("INSERT INTO v(rowid, embedding) VALUES (?, ?)",
                          ((int(ids[i]), matrix[i].tobytes()) for i in range(start, min(start + 10000, len(matrix)))))
        c.commit()
        seconds = []
        for q in qs:
            start = time.perf_counter()
            c.execute("SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = 10", (q.tobytes(),)).fetchall()
            seconds.append(time.perf_counter() - start)
        result["sqlite_vec"] = summary(seconds[1:])
        c.close()
        os.remove(vec_db)
    except Exception as error:  # noqa: BLE001
        result["sqlite_vec"] = {"error": str(error)}
    os.remove(npy)
    return result


def ratio(a, b):
    try:
        return round(a / b, 2)
    except (TypeError, ZeroDivisionError):
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--demo", default="corpora")
    args = parser.parse_args()
    lectern = os.path.abspath(args.lectern)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    environment = env(work)
    qs = queries(max(args.calls, 40))
    results = {"benchmark": "lectern search vs exact-scan peers", "machine": f"{os.uname().machine}, {os.cpu_count()} cores",
               "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "k": 10, "libraries": []}

    # The demo library (corpora/, MiniLM): the call figures against `lectern stats`.
    if os.path.isdir(args.demo):
        demo_db = os.path.join(work, "demo.db")
        if not os.path.exists(demo_db):
            subprocess.run([lectern, "ingest", args.demo, "--db", demo_db], env=environment | {"LECTERN_EMBEDDER": "minilm"},
                           check=True, capture_output=True)
        demo_qs = ["light-dependent reactions", "chain rule", "entropy of a message", "oxidative phosphorylation", "the derivative"] * 4
        row = {"name": "demo (corpora/, MiniLM)", "cli": cli_rows(lectern, demo_db, environment, demo_qs, args.calls),
               "in_process": in_process(lectern, demo_db, environment, demo_qs)}
        results["libraries"].append(row)

    hashing = environment | {"LECTERN_EMBEDDER": "hashing"}
    for size in (int(s) for s in args.sizes.split(",") if s):
        # Each padded library is kept between runs (like the peers' install, its making is not
        # part of the bench's time): the notes are the same every time (seeded), and the
        # library is made again only when it is missing or holds another count.
        db = os.path.join(work, f"padded-{size}.db")
        marker = db + ".json"
        def stored():
            return json.loads(subprocess.run([lectern, "stats", "--json", "--db", db], env=hashing, check=True,
                                             capture_output=True).stdout)["passages"]
        made = None
        if os.path.exists(db) and os.path.exists(marker) and not os.environ.get("SEARCH_BENCH_FRESH"):
            with open(marker) as f:
                made = json.load(f)
            if stored() != size:
                made = None
        if made is None:
            for leftover in (db, db + "-wal", db + "-shm", marker):
                if os.path.exists(leftover):
                    os.remove(leftover)
            smallest = os.path.join(work, "padded-10000.db")
            start = time.perf_counter()
            if os.environ.get("SEARCH_BENCH_PAD") and size > 10000 and os.path.exists(smallest):
                # Minutes instead of an ingest's quarter of an hour (release) at 1M: the 10k
                # library's documents copied with fresh text and their vectors (bench/pad_library.py).
                import shutil
                shutil.copyfile(smallest, db)
                subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "pad_library.py"), db, str(size)],
                               check=True, capture_output=True)
                # The padded copies' keyword postings are built by the migration the next
                # lectern runs (bench/pad_library.py): here, as part of making the library.
                subprocess.run([lectern, "stats", "--db", db], env=hashing, check=True, capture_output=True)
            else:
                notes = os.path.join(work, f"notes-0-{size}")
                if not os.path.isdir(notes):
                    write_notes(notes, 0, size)
                subprocess.run([lectern, "ingest", notes, "--db", db], env=hashing, check=True, capture_output=True)
            made = {"ingest_seconds": round(time.perf_counter() - start, 1), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            with open(marker, "w") as f:
                json.dump(made, f)
            print(f"search bench: {size} passages ingested in {made['ingest_seconds']} s", file=sys.stderr)
        else:
            print(f"search bench: {size} passages, the library made {made['date']} (SEARCH_BENCH_FRESH=1 makes it again)", file=sys.stderr)
        passages = stored()
        ingest_seconds = made["ingest_seconds"]
        sidecar = build_sidecar(lectern, db, hashing, qs[-1])
        row = {"name": f"{size // 1000}k", "passages": passages, "ingest_seconds": round(ingest_seconds, 1), "sidecar": sidecar,
               "cli": cli_rows(lectern, db, hashing, qs, args.calls), "in_process": in_process(lectern, db, hashing, qs),
               "peers": peers(db, work, max(args.calls, 20))}
        results["libraries"].append(row)

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    print_table(results)


def print_table(results):
    print(f"lectern search, k = 10, p50 (p95) ms — {results['machine']}, {results['date']}")
    for row in results["libraries"]:
        cli, inp = row["cli"], row["in_process"]
        print(f"\n== {row['name']}" + (f": {row['passages']} passages, ingest {row['ingest_seconds']} s" if "passages" in row else ""))
        if row.get("sidecar"):
            sidecar = row["sidecar"]
            print(f"  vector sidecar {sidecar['bytes'] / 1e6:.0f} MB, written by the first semantic call in {sidecar['build_seconds']} s "
                  f"({sidecar['build_cpu_seconds']} s of CPU)")
        for name in ("stats", "keyword", "semantic", "hybrid"):
            r = cli[name]
            print(f"  call {name:9} {r['p50_ms']:9.1f} ({r['p95_ms']:.1f})   CPU {r['cpu_p50_ms']:.1f} ({r['cpu_p95_ms']:.1f})"
                  f"   peak RSS {r['rss_kb'] / 1024:.0f} MB")
        for mode in ("keyword", "semantic", "hybrid"):
            r = inp[mode]
            print(f"  in-process {mode:9} {r['search']['p50_ms']:7.2f} ({r['search']['p95_ms']:.2f})   query embedding "
                  f"{r['embedding']['p50_ms']:.2f}   without it {r['search_without_embedding']['p50_ms']:.2f}")
        print(f"  ratio semantic call / stats call: wall {ratio(cli['semantic']['p50_ms'], cli['stats']['p50_ms'])}, "
              f"CPU {ratio(cli['semantic']['cpu_p50_ms'], cli['stats']['cpu_p50_ms'])}")
        print(f"  ratio hybrid call / stats call: {ratio(cli['hybrid']['p50_ms'], cli['stats']['p50_ms'])}; "
              f"keyword call / stats call: {ratio(cli['keyword']['p50_ms'], cli['stats']['p50_ms'])}")
        peers = row.get("peers")
        if not peers:
            continue
        for name in ("numpy_inprocess", "numpy_one_shot", "faiss_flat_ip", "sqlite_vec"):
            r = peers[name]
            print(f"  peer {name:16} " + (f"{r['p50_ms']:9.2f} ({r['p95_ms']:.2f})" if "p50_ms" in r else r.get("error", "")))
        semantic = inp["semantic"]["search_without_embedding"]["p50_ms"]
        print(f"  compact scan recall@10 vs exact float32: {peers['compact_recall_at_10']}")
        print(f"  ratio hybrid call / numpy one-shot: {ratio(cli['hybrid']['p50_ms'], peers['numpy_one_shot'].get('p50_ms'))}; "
              f"in-process semantic (without embedding) / numpy in-process: {ratio(semantic, peers['numpy_inprocess'].get('p50_ms'))}; "
              f"/ FAISS: {ratio(semantic, peers['faiss_flat_ip'].get('p50_ms'))}; / sqlite-vec: {ratio(semantic, peers['sqlite_vec'].get('p50_ms'))}")


if __name__ == "__main__":
    main()
