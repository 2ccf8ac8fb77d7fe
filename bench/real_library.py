"""A library of real text at the scale of an institution's, for the HNSW index's recall at 1M
passages (issue 32; docs/benchmarks.md, PostgreSQL): the documentation already on this machine,
as its users have it. The Rust toolchains' HTML books and API pages (rustup's share/doc, stable
and nightly), the man pages (bench/man_pages.py's markdown), and every other .md/.rst/.txt/.html
file of at least 1.5 KB under the roots given, mostly letters (no tables of numbers), each text once
(SHA-1 of its bytes), hard-linked (or copied) into OUT under a unique name that keeps its
extension. The queries, written to QUERIES as JSON lines with a `text` each, are what such a
library's users ask: the man pages' NAME descriptions ("read a directory"), the first sentence of
Rust API pages' item docs, and the shared corpus's eval questions; none is a passage's text.

    python3 bench/real_library.py OUT QUERIES [ROOT ...]      (roots: /root/.rustup /usr /opt by default)

`lectern ingest OUT` with `LECTERN_CHUNK_MAX_TOKENS=128` (all-MiniLM-L6-v2's training length)
makes about a million passages of it with both Rust toolchains present.
"""
import hashlib
import html
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXTENSIONS = {".md", ".rst", ".txt", ".html", ".htm"}
SKIP = ("/proc", "/sys", "/.build", "/bench/work", "/.venv-", "/.cache", "/tmp")
DOCBLOCK = re.compile(r'<div class="docblock">\s*<p>(.*?)</p>', re.S)
TAG = re.compile(r"<[^>]+>")


def wanted(path, size):
    if size < 1500 or size > 3_000_000:
        return False
    with open(path, "rb") as f:
        head = f.read(20000).decode("utf-8", "ignore")
    return sum(c.isalpha() for c in head) >= 0.55 * len(head)


def first_sentence(path):
    """The first sentence of a Rust API page's first docblock ("Returns the length of …")."""
    try:
        with open(path, encoding="utf-8", errors="ignore") as f:
            match = DOCBLOCK.search(f.read(200000))
    except OSError:
        return None
    if not match:
        return None
    text = html.unescape(TAG.sub("", match.group(1))).split(". ")[0].strip().rstrip(".")
    words = text.split()
    return text if 4 <= len(words) <= 20 and "`" not in text else None


def main():
    out, queries = sys.argv[1], sys.argv[2]
    roots = sys.argv[3:] or ["/root/.rustup", "/usr", "/opt"]
    os.makedirs(out, exist_ok=True)
    seen, files, sentences = set(), 0, []
    total = 0
    for root in roots:
        for folder, folders, names in os.walk(root):
            if any(s in folder for s in SKIP):
                folders[:] = []
                continue
            folders.sort()
            for name in sorted(names):
                extension = os.path.splitext(name)[1].lower()
                path = os.path.join(folder, name)
                if extension not in EXTENSIONS or os.path.islink(path):
                    continue
                try:
                    size = os.path.getsize(path)
                    if not wanted(path, size):
                        continue
                    with open(path, "rb") as f:
                        digest = hashlib.sha1(f.read()).hexdigest()
                except OSError:
                    continue
                if digest in seen:
                    continue
                seen.add(digest)
                target = os.path.join(out, f"{digest[:12]}-{name}")
                if not os.path.exists(target):
                    try:
                        os.link(path, target)
                    except OSError:
                        shutil.copyfile(path, target)
                files += 1
                total += size
                if "/rust/html/std/" in path and name.startswith(("fn.", "struct.", "trait.", "enum.")):
                    sentences.append(path)
    man = os.path.join(out, "man")
    man_queries = os.path.join(out, "man-queries.jsonl")
    subprocess.run([sys.executable, os.path.join(HERE, "man_pages.py"), man, man_queries, "100000000"], check=True)
    rng = random.Random(32)
    rng.shuffle(sentences)
    asked = []
    for path in sentences:
        sentence = first_sentence(path)
        if sentence and sentence not in asked:
            asked.append(sentence)
        if len(asked) == 100:
            break
    with open(man_queries) as f:
        asked += [json.loads(line)["text"] for line in f if line.strip()][:100]
    eval_questions = os.path.join(HERE, "..", "eval", "shared", "queries.jsonl")
    with open(eval_questions) as f:
        asked += [json.loads(line)["text"] for line in f if line.strip()][:100]
    os.remove(man_queries)
    with open(queries, "w") as f:
        for text in asked:
            f.write(json.dumps({"text": text}) + "\n")
    print(f"real library: {files} files ({total / 1e6:.0f} MB) and the man pages in {out}; {len(asked)} queries in {queries}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
