"""A library on PostgreSQL beside the same library in one SQLite file (issue 32, item 6).

For each size (PG_BENCH_SIZES, default 100k passages): a SQLite library padded through
`lectern ingest` (synthetic notes, hashing embedder; bench/search_bench.py's notes and library,
reused when bench/work/search holds it), copied into PostgreSQL by `lectern migrate`, so that
both hold the same passages with the same vectors bit for bit; then, on both:
  - search p50/p95 per mode in process (`lectern search --stdin --timings`, the first query
    apart: it loads the vectors or opens the session), the same queries;
  - on PostgreSQL, recall@10 of the HNSW index as Lectern queries it (its candidates with
    ef_search as deep, iterative scan, re-ranked in float32) against the exact scan of the
    float32 copies, for three kinds of query (`query_vectors`): the headline is the users' kind,
    the hashing vectors of the shared eval set's questions; the normalised sum of two stored
    vectors, which this bench asked alone before, is reported beside it as the index's worst
    case (a midpoint's neighbours past its two parents are near-ties);
  - storage: the SQLite file, the PostgreSQL database and its largest relations.
Then ingest throughput on PostgreSQL with 1, 2 and 4 concurrent `lectern ingest` processes, each
its share of the same notes plus one folder every process ingests (the same documents written
by several writers at once): every process must succeed, and the library must hold each
document once. And, where bench/work/eval holds the shared corpus's MiniLM evaluation library
(bench/eval_shared.sh), `lectern eval` on a PostgreSQL copy of it beside the file's figures.

Run by bench/pg_bench.sh (which starts the server); writes bench/results/postgres.json.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_bench import env, pct, queries, summary, write_notes  # noqa: E402


def scrubbed(text):
    """`text` without the server's password (a URL's `user:password@`)."""
    return re.sub(r"(postgres(?:ql)?://[^:/@\s]+):[^@\s]*@", r"\1@", text)


def run(command, environment, **kwargs):
    result = subprocess.run(command, env=environment, capture_output=True, **kwargs)
    if result.returncode != 0:
        raise SystemExit(scrubbed(f"postgres bench: {' '.join(command)} failed ({result.returncode}): {result.stderr.decode()[-600:]}"))
    return result


class Server:
    """The bench's PostgreSQL (bench/pg_bench.sh started it): psql against its databases."""

    def __init__(self, url, psql):
        self.url = url
        self.psql = psql

    def database(self, name, keep=False):
        """The URL of an empty database `name` (dropped first); with `keep`, the database as an
        earlier run left it when there is one (a 1M copy takes hours: `lectern migrate` into it
        again copies only what it lacks)."""
        exists = self.sql(f"select 1 from pg_database where datname = '{name}'", self.url) == "1"
        if exists and not keep:
            self.sql(f"drop database if exists {name} with (force)", self.url)
        if not exists or not keep:
            self.sql(f"create database {name}", self.url)
        return self.url.rsplit("/", 1)[0] + "/" + name

    def sql(self, statement, url):
        result = subprocess.run([self.psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement],
                                capture_output=True)
        if result.returncode != 0:
            raise SystemExit(scrubbed(f"postgres bench: psql failed: {result.stderr.decode()[-600:]}"))
        return result.stdout.decode().strip()


def in_process(lectern, library, environment, qs, work):
    """p50/p95 of `lectern search --stdin --timings` per mode, the first query apart."""
    rows = {}
    for mode in ("keyword", "semantic", "hybrid"):
        rss_file = os.path.join(work, "search.rss")
        command = ["/usr/bin/time", "-f", "%M", "-o", rss_file,
                   lectern, "search", "--stdin", "--timings", "--mode", mode, "-k", "10", "--json", "--db", library]
        process = subprocess.run(command, input=("\n".join(qs) + "\n").encode(), env=environment, capture_output=True)
        if process.returncode not in (0, 1):
            raise SystemExit(f"postgres bench: search --stdin on {mode} failed: {process.stderr.decode()[-600:]}")
        with open(rss_file) as f:
            rss = int(f.read().strip().splitlines()[-1])
        timings = [json.loads(line) for line in process.stderr.decode().splitlines() if line.startswith("{")][1:]
        hits = [json.loads(line) for line in process.stdout.decode().splitlines() if line.startswith("[")]
        rows[mode] = {
            "search": summary([t["total_ms"] / 1000 for t in timings]),
            "search_without_embedding": summary([(t["total_ms"] - t["embedding_ms"]) / 1000 for t in timings]),
            "rss_kb": rss,
        }
        rows[mode]["_hits"] = hits
    return rows


def top_places(hits):
    """Each query's hits as (uri, location): the identity a passage keeps in both libraries."""
    return [[(h.get("uri"), json.dumps(h.get("location"), sort_keys=True)) for h in query] for query in hits]


def overlap(a, b):
    """Mean share of b's top 10 found in a's top 10."""
    shares = [len(set(x[:10]) & set(y[:10])) / max(1, min(10, len(y))) for x, y in zip(a, b) if y]
    return round(sum(shares) / len(shares), 4) if shares else None


def query_vectors(server, url, lectern, count, seed=5, embedder="hashing", questions=None):
    """The recall queries by kind. `text`: the shared eval set's questions
    (eval/shared/queries.jsonl, or the JSON lines file `questions`) as the library's embedder makes them, what a user's search asks
    of the index; the headline. `words`: the search bench's queries (two or three of the notes'
    common words). `midpoints`: the normalised sum of two stored vectors, `count` of them, which
    this bench asked alone before: a midpoint has two true neighbours and then near-ties that no
    approximate index ranks exactly. On the padded notes the questions fare worse still (their
    words are not the notes', so their top 10 is the tail of a near-random spread), on real text
    far better (docs/benchmarks.md): the padded library measures speed, not recall."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(questions or os.path.join(root, "eval", "shared", "queries.jsonl")) as f:
        questions = [json.loads(line)["text"] for line in f if line.strip()]
    embedded = {}
    for kind, texts in (("text", questions), ("words", queries(count, seed=11))):
        out = run([lectern, "embed", "--embedder", embedder, "--json"], dict(os.environ), input="\n".join(texts).encode() + b"\n").stdout
        embedded[kind] = json.loads(out)["vectors"]
    low, high = (int(x) for x in server.sql("select min(id), max(id) from passages", url).split("|"))
    rng = random.Random(seed)
    embedded["midpoints"] = []
    for _ in range(count):
        a, b = rng.randint(low, high), rng.randint(low, high)
        vector = server.sql(f"select l2_normalize(x.exact + y.exact)::text from passages x, passages y "
                            f"where x.id = (select min(id) from passages where id >= {a}) "
                            f"and y.id = (select min(id) from passages where id >= {b})", url)
        embedded["midpoints"].append([float(v) for v in vector[1:-1].split(",")])
    return embedded


def recall(server, url, lectern, dimension, count, depths=(100, 200, 400), questions=None):
    """recall@10 of Lectern's HNSW query (ef_search `depth`, iterative scan, its best
    max(depth / 2, 100) candidates re-ranked in float32) against the exact float32 scan, per kind
    of query (`query_vectors`, or the JSON lines file `questions` as the `text` kind). A search of
    k hits searches max(4·100, 100) = 400 deep and re-ranks 200 (the searcher ranks 100 deep
    before fusion); 100 is what a caller asking k = 25 or fewer would get. A hit ranked under a
    tie with the exact tenth (cosine within 1e-6) counts as found."""
    result = {}
    for kind, vectors in query_vectors(server, url, lectern, count, questions=questions).items():
        found, hnsw_seconds, exact_seconds = {d: 0 for d in depths}, {d: [] for d in depths}, []
        for vector in vectors:
            literal = "[" + ",".join(repr(float(x)) for x in vector) + "]"
            start = time.perf_counter()
            exact = server.sql(f"select id || '|' || (1 - (exact <=> '{literal}'::vector)) from passages "
                               f"order by exact <=> '{literal}'::vector, id limit 10", url).split()
            exact_seconds.append(time.perf_counter() - start)
            tenth = float(exact[-1].split("|")[1])
            exact = {line.split("|")[0] for line in exact}
            for depth in depths:
                start = time.perf_counter()
                approximate = server.sql(
                    f"begin; set local hnsw.ef_search = {depth}; set local hnsw.iterative_scan = relaxed_order; "
                    f"with candidates as (select id, exact from passages where vector_dims(embedding) = {dimension} "
                    f"order by embedding::halfvec({dimension}) <=> '{literal}'::halfvec({dimension}) limit {max(depth // 2, 100)}) "
                    f"select id || '|' || (1 - (exact <=> '{literal}'::vector)) from candidates "
                    f"order by exact <=> '{literal}'::vector, id limit 10; commit;", url).split()
                hnsw_seconds[depth].append(time.perf_counter() - start)
                found[depth] += sum(1 for line in approximate
                                    if line.split("|")[0] in exact or float(line.split("|")[1]) >= tenth - 1e-6)
        row = {"queries": len(vectors), "psql_exact_scan": summary(exact_seconds)}
        for depth in depths:
            row[f"ef_search_{depth}"] = {"recall_at_10": round(found[depth] / (10 * len(vectors)), 4), "psql_hnsw": summary(hnsw_seconds[depth])}
        # What a search asks (ef_search 400, 200 re-ranked) is each kind's figure.
        row["recall_at_10"] = row["ef_search_400"]["recall_at_10"]
        row["psql_hnsw"] = row["ef_search_400"]["psql_hnsw"]
        result[kind] = row
    # The users' kind of query is the headline.
    result["recall_at_10"] = result["text"]["recall_at_10"]
    return result


def migrate(lectern, db, url, environment, size):
    """`lectern migrate --from db --to url`, with a progress line on stderr every minute (a 1M
    copy takes hours); its --json summary."""
    command = [lectern, "migrate", "--from", db, "--to", url, "--json", "--events", "json"]
    process = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start, last, tail = time.perf_counter(), time.perf_counter(), []
    first_document = last_document = None
    for line in process.stderr:
        tail = (tail + [line])[-5:]
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("index") and event.get("total"):
            last_document = time.perf_counter()
            first_document = first_document or last_document
        if time.perf_counter() - last < 60:
            continue
        last = time.perf_counter()
        if event.get("index") and event.get("total"):
            print(f"postgres bench: {size} passages: document {event['index']} of {event['total']} copied, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    out = process.stdout.read()
    if process.wait() != 0:
        raise SystemExit(scrubbed(f"postgres bench: {' '.join(command)} failed ({process.returncode}): {''.join(tail)[-600:]}"))
    end = time.perf_counter()
    # Where the copy's time goes: opening both libraries and reading the list of documents,
    # writing the documents, and what follows the last one (the HNSW index, the vacuum, the
    # embedding cache, the rest of the records and the counts).
    phases = {"until_first_document_seconds": round((first_document or end) - start, 1),
              "documents_seconds": round((last_document or end) - (first_document or end), 1),
              "after_last_document_seconds": round(end - (last_document or end), 1)}
    return json.loads(out) | {"phases": phases}


def storage(server, url, db):
    sizes = {"sqlite_file_bytes": sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))}
    sizes["postgres_database_bytes"] = int(server.sql("select pg_database_size(current_database())", url))
    rows = server.sql("select c.relname, pg_relation_size(c.oid) from pg_class c join pg_namespace n on n.oid = c.relnamespace "
                      "where n.nspname = 'public' order by 2 desc limit 6", url)
    sizes["postgres_largest"] = {name: int(size) for name, size in (line.split("|") for line in rows.splitlines())}
    sizes["postgres_toast_and_all_of_passages_bytes"] = int(server.sql("select pg_total_relation_size('passages')", url))
    return sizes


def padded_library(lectern, work, size, hashing):
    """The SQLite library of `size` passages: bench/work/search's when it is there, else made here."""
    for folder in (os.path.join(os.path.dirname(work), "search"), work):
        db = os.path.join(folder, f"padded-{size}.db")
        if os.path.exists(db) and os.path.exists(db + ".json"):
            stored = json.loads(run([lectern, "stats", "--json", "--db", db], hashing).stdout)["passages"]
            if stored == size:
                return db, json.load(open(db + ".json")).get("ingest_seconds")
    db = os.path.join(work, f"padded-{size}.db")
    for leftover in (db, db + "-wal", db + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    notes = os.path.join(work, f"notes-0-{size}")
    if not os.path.isdir(notes):
        write_notes(notes, 0, size)
    start = time.perf_counter()
    run([lectern, "ingest", notes, "--db", db], hashing)
    seconds = round(time.perf_counter() - start, 1)
    with open(db + ".json", "w") as f:
        json.dump({"ingest_seconds": seconds, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, f)
    return db, seconds


def concurrent_ingest(lectern, server, work, hashing, total, writers):
    """`writers` `lectern ingest` processes at once on one new database, each its share of
    `total` passages plus a folder all of them ingest; passages/s over the wall time."""
    root = os.path.join(work, f"ingest-{total}")
    if not os.path.isdir(root):
        write_notes(os.path.join(root, "all"), 10_000_000, total, per_file=250)
        write_notes(os.path.join(root, "shared"), 20_000_000, 1000, per_file=250)
    files = sorted(os.listdir(os.path.join(root, "all")))
    url = server.database(f"ingest_{writers}")
    # The schema and the embedder first, as a first `lectern ingest` makes them: the bench
    # measures writers of documents, not four processes racing to make the same tables.
    run([lectern, "ingest", os.path.join(root, "shared", sorted(os.listdir(os.path.join(root, "shared")))[0]), "--db", url], hashing)
    before = int(server.sql("select count(*) from passages", url))
    shares = []
    for index in range(writers):
        share = os.path.join(work, f"share-{writers}-{index}")
        shutil.rmtree(share, ignore_errors=True)
        os.makedirs(share)
        for name in files[index::writers]:
            os.symlink(os.path.join(root, "all", name), os.path.join(share, name))
        shares.append(share)
    start = time.perf_counter()
    processes = [subprocess.Popen([lectern, "ingest", share, os.path.join(root, "shared"), "--db", url], env=hashing,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for share in shares]
    outcomes = [(p.wait(), p.stderr.read().decode()[-300:]) for p in processes]
    seconds = time.perf_counter() - start
    documents = int(server.sql("select count(*) from documents", url))
    distinct = int(server.sql("select count(distinct uri) from documents", url))
    passages = int(server.sql("select count(*) from passages", url))
    expected_documents = len(files) + len(os.listdir(os.path.join(root, "shared")))
    return {"writers": writers, "seconds": round(seconds, 1), "passages": passages,
            "passages_per_second": round((passages - before) / seconds, 1),
            "failed_processes": sum(1 for status, _ in outcomes if status != 0),
            "errors": [err for status, err in outcomes if status != 0][:2],
            "documents": documents, "expected_documents": expected_documents, "doubled": documents - distinct,
            "lost": expected_documents - distinct}


def eval_on_postgres(lectern, server, root, environment):
    """`lectern eval` (MiniLM, both splits, every mode) on a PostgreSQL copy of the evaluation
    library bench/eval_shared.sh built, beside the file's own figures."""
    work = os.path.join(root, "bench", "work", "eval")
    library = os.path.join(work, "library", "eval.db")
    if not os.path.exists(library) or not os.path.exists(os.path.join(work, "lectern.test.json")):
        return {"skipped": "bench/work/eval holds no evaluation library: run bench/eval_shared.sh first"}
    url = server.database("eval")
    start = time.perf_counter()
    copy = run([lectern, "migrate", "--from", library, "--to", url], environment)
    result = {"migrate_seconds": round(time.perf_counter() - start, 1), "migrate": copy.stdout.decode().splitlines()[0], "splits": {}}
    for split in ("dev", "test"):
        out = run([lectern, "eval", os.path.join(work, "dataset"), "--split", split, "--mode", "all", "--embedder", "minilm",
                   "--json", "--keep", os.path.join(work, "library"), "--db", url], environment).stdout
        postgres = {m["mode"]: m for m in json.loads(out)["modes"]}
        sqlite = {m["mode"]: m for m in json.load(open(os.path.join(work, f"lectern.{split}.json")))["modes"]}
        result["splits"][split] = {mode: {"sqlite_ndcg@10": round(sqlite[mode]["ndcg@10"], 4),
                                          "postgres_ndcg@10": round(postgres[mode]["ndcg@10"], 4),
                                          "difference": round(postgres[mode]["ndcg@10"] - sqlite[mode]["ndcg@10"], 4),
                                          "sqlite_ms_per_query": round(sqlite[mode]["seconds_per_query"] * 1000, 1),
                                          "postgres_ms_per_query": round(postgres[mode]["seconds_per_query"] * 1000, 1)}
                                   for mode in sqlite}
    return result


def both_backends(lectern, db, url, environment, qs, work):
    """The same queries in process on the SQLite library and its PostgreSQL copy: each mode's
    p50/p95, RSS and the share of top 10s they agree on, and the seconds it all took."""
    start = time.perf_counter()
    sqlite = in_process(lectern, db, environment, qs, work)
    postgres = in_process(lectern, url, environment, qs, work)
    search = {mode: {
        "sqlite": sqlite[mode]["search"], "postgres": postgres[mode]["search"],
        "sqlite_rss_kb": sqlite[mode]["rss_kb"], "postgres_rss_kb": postgres[mode]["rss_kb"],
        "top10_overlap_postgres_vs_sqlite": overlap(top_places(postgres[mode]["_hits"]), top_places(sqlite[mode]["_hits"])),
    } for mode in sqlite}
    return {"search_seconds": round(time.perf_counter() - start, 1), "search": search}


def real_library(lectern, server, args, db, work, hashing):
    """A library of real text (bench/real_library.py) copied into PostgreSQL: in process
    search p50/p95 per mode on both backends with its users' questions as the queries, and the
    HNSW index's recall@10 for those questions (`text`) beside the padded notes' kinds."""
    size = json.loads(run([lectern, "stats", "--json", "--db", db], hashing).stdout)["passages"]
    with open(args.questions) as f:
        asked = [json.loads(line)["text"] for line in f if line.strip()]
    url = server.database("real_library", keep=not args.fresh)
    start = time.perf_counter()
    migrated = migrate(lectern, db, url, hashing, size)
    row = {"passages": size, "library": "real text (bench/real_library.py)", "questions": len(asked), "sqlite_ingest_seconds": None,
           "migrate_seconds": round(time.perf_counter() - start, 1), "migrate_documents_copied": migrated["copied"],
           "migrate_documents_already_there": migrated["present"],
           "migrate_counts_agree": all(c["from"] == c["to"] for c in migrated["counts"]), "migrate_phases": migrated["phases"]}
    print(f"postgres bench: the real library's {size} passages copied in {row['migrate_seconds']} s; searching", file=sys.stderr, flush=True)
    # The first query of each run is left out (it loads the index); each question once more after it.
    row.update(both_backends(lectern, db, url, hashing, asked[:1] + asked, work))
    print("postgres bench: the real library: HNSW recall", file=sys.stderr, flush=True)
    start = time.perf_counter()
    row["hnsw"] = recall(server, url, lectern, 384, args.recall_queries, questions=args.questions)
    row["recall_seconds"] = round(time.perf_counter() - start, 1)
    row["storage"] = storage(server, url, db)
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--url", required=True, help="the server's admin URL (bench/pg_bench.sh)")
    parser.add_argument("--psql", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--recall-queries", type=int, default=50)
    parser.add_argument("--ingest-passages", type=int, default=20000)
    parser.add_argument("--skip", default="", help="comma-separated: search, recall, ingest, eval")
    parser.add_argument("--fresh", action="store_true", help="copy each padded library into a new database, not into the last run's")
    parser.add_argument("--real", help="a SQLite library of real text (bench/real_library.py), measured instead of the padded ones")
    parser.add_argument("--questions", help="with --real: its users' queries, JSON lines with a `text` each")
    args = parser.parse_args()
    lectern = os.path.abspath(args.lectern)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    environment = env(work)
    hashing = environment | {"LECTERN_EMBEDDER": "hashing"}
    server = Server(args.url, args.psql)
    skip = set(filter(None, args.skip.split(",")))
    results = {"benchmark": "lectern on PostgreSQL beside SQLite", "machine": f"{os.uname().machine}, {os.cpu_count()} cores",
               "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "lectern": args.lectern,
               "server": server.sql("select version()", args.url).split(",")[0],
               "pgvector": server.sql("select default_version from pg_available_extensions where name = 'vector'", args.url),
               "load_average_at_start": os.getloadavg(), "libraries": []}
    if args.real:
        results["libraries"].append(real_library(lectern, server, args, os.path.abspath(args.real), work, hashing))
        skip |= {"search", "ingest", "eval"}
    qs = queries(args.queries + 1)
    for size in (int(s) for s in args.sizes.split(",") if s) if "search" not in skip else ():
        db, ingest_seconds = padded_library(lectern, work, size, hashing)
        url = server.database(f"padded_{size}", keep=not args.fresh)
        start = time.perf_counter()
        migrated = migrate(lectern, db, url, hashing, size)
        row = {"passages": size, "sqlite_ingest_seconds": ingest_seconds,
               "migrate_seconds": round(time.perf_counter() - start, 1),
               "migrate_documents_copied": migrated["copied"], "migrate_documents_already_there": migrated["present"],
               "migrate_counts_agree": all(c["from"] == c["to"] for c in migrated["counts"]),
               "migrate_phases": migrated["phases"]}
        print(f"postgres bench: {size} passages copied into PostgreSQL in {row['migrate_seconds']} s "
              f"({migrated['copied']} documents copied, {migrated['present']} already there)", file=sys.stderr, flush=True)
        print(f"postgres bench: {size} passages: searching", file=sys.stderr, flush=True)
        row.update(both_backends(lectern, db, url, hashing, qs, work))
        if "recall" not in skip:
            print(f"postgres bench: {size} passages: HNSW recall", file=sys.stderr, flush=True)
            start = time.perf_counter()
            row["hnsw"] = recall(server, url, lectern, 384, args.recall_queries)
            row["recall_seconds"] = round(time.perf_counter() - start, 1)
        row["storage"] = storage(server, url, db)
        results["libraries"].append(row)
    if "ingest" not in skip:
        results["ingest"] = [concurrent_ingest(lectern, server, work, hashing, args.ingest_passages, writers) for writers in (1, 2, 4)]
    if "eval" not in skip:
        results["eval"] = eval_on_postgres(lectern, server, root, environment)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    print_table(results)


def print_table(results):
    print(f"lectern on PostgreSQL ({results['server']}, pgvector {results['pgvector']}) beside SQLite — "
          f"{results['machine']}, {results['date']}, load {results['load_average_at_start'][0]:.1f}")
    for row in results["libraries"]:
        print(f"\n== {row['passages']} passages (SQLite ingest {row['sqlite_ingest_seconds']} s; lectern migrate into "
              f"PostgreSQL {row['migrate_seconds']} s, counts agree: {row['migrate_counts_agree']})")
        p = row.get("migrate_phases", {})
        print(f"  migrate: {p.get('until_first_document_seconds')} s before the first document, {p.get('documents_seconds')} s "
              f"writing documents, {p.get('after_last_document_seconds')} s after the last (index, vacuum, the rest); "
              f"searches {row.get('search_seconds')} s, HNSW recall {row.get('recall_seconds')} s")
        for mode, r in row["search"].items():
            print(f"  in process {mode:9} SQLite {r['sqlite']['p50_ms']:8.2f} ({r['sqlite']['p95_ms']:.2f}) ms   "
                  f"PostgreSQL {r['postgres']['p50_ms']:8.2f} ({r['postgres']['p95_ms']:.2f}) ms   "
                  f"same top 10: {r['top10_overlap_postgres_vs_sqlite']}")
        h = row.get("hnsw", {})
        for kind in ("text", "words", "midpoints") if h else ():
            r = h[kind]
            print(f"  HNSW recall@10 vs exact scan, {kind} ({r['queries']} queries; exact scan {r['psql_exact_scan']['p50_ms']:.1f} ms): " +
                  ", ".join(f"{depth.split('_')[-1]} candidates {r[depth]['recall_at_10']} ({r[depth]['psql_hnsw']['p50_ms']:.1f} ms)"
                            for depth in r if depth.startswith("ef_search_")))
        s = row["storage"]
        print(f"  storage: SQLite {s['sqlite_file_bytes'] / 1e6:.0f} MB, PostgreSQL {s['postgres_database_bytes'] / 1e6:.0f} MB "
              f"({', '.join(f'{k} {v / 1e6:.0f} MB' for k, v in s['postgres_largest'].items())})")
    for r in results.get("ingest", []):
        print(f"  ingest, {r['writers']} process{'es' if r['writers'] > 1 else ''}: {r['passages_per_second']} passages/s "
              f"({r['seconds']} s), failed {r['failed_processes']}, documents {r['documents']}/{r['expected_documents']}, "
              f"doubled {r['doubled']}, lost {r['lost']}")
    e = results.get("eval")
    if e and "splits" in e:
        for split, modes in e["splits"].items():
            print(f"  eval {split}: " + "; ".join(f"{m} nDCG@10 SQLite {v['sqlite_ndcg@10']} PostgreSQL {v['postgres_ndcg@10']} "
                                                  f"(Δ {v['difference']:+.4f})" for m, v in modes.items()))
    elif e:
        print(f"  eval: {e.get('skipped')}")


if __name__ == "__main__":
    main()
