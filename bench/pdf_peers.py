"""PDF peers: PyMuPDF and pdfminer.six beside lectern and pdftotext, and word agreement.

    pdf_peers.py extract TOOL PASSWORD FILE...       (the peer's own run: prints the text)
    pdf_peers.py bench LECTERN WORK RESULT_JSON --files F... --big BIG [--runs N] [--quick]

`bench` times every tool on each shared PDF alone, on the unencrypted ones as one batch (one
process for all) and on the big PDF, each run a fresh process under /usr/bin/time (wall seconds,
best of N, and peak RSS), so every tool pays its own start as a user would. Word agreement is
the F1 of the bags of lowercased words of each tool's text against pdftotext's, per file: 1.0
means the same words as often. `--quick` reads the big PDF once and leaves pdfminer.six (about
40 pages/s) out of it. Writes RESULT_JSON; pdf_bench.sh runs it in bench/.venv-peers.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

PASSWORDS = {"docling-2206.01062_pg3.pdf": "1234", "pypdf-libreoffice-writer-password.pdf": "openpassword"}
WORD = re.compile(r"\w+", re.UNICODE)


def extract(tool, password, files):
    out = sys.stdout
    for path in files:
        if tool == "pymupdf":
            import pymupdf
            document = pymupdf.open(path)
            if document.needs_pass:
                document.authenticate(password)
            for page in document:
                out.write(page.get_text())
        elif tool == "pdfminer":
            from pdfminer.high_level import extract_text
            out.write(extract_text(path, password=password or ""))
        else:
            raise SystemExit("unknown tool " + tool)


def command(tool, lectern, password, files):
    if tool == "lectern":
        return [lectern, "extract", "--json"] + (["--password", password] if password else []) + files
    if tool == "pdftotext":
        if len(files) == 1:
            return ["pdftotext", "-q"] + (["-upw", password] if password else []) + [files[0], "-"]
        return ["bash", "-c", 'for f; do pdftotext -q "$f" - || exit 1; done', "_"] + files
    return [sys.executable, os.path.abspath(__file__), "extract", tool, password or ""] + files


def measure(argv, runs, work):
    """(best wall seconds, peak RSS MB, exit status, stdout of the last run)."""
    best, rss, status, text = None, 0, 0, ""
    timing = os.path.join(work, "peer-time.txt")
    for _ in range(runs):
        start = time.perf_counter()
        run = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timing] + argv, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        status = run.returncode
        text = run.stdout
        with open(timing) as f:
            kb = int(f.read().strip().splitlines()[-1])
        best = seconds if best is None else min(best, seconds)
        rss = max(rss, kb // 1024)
    return best, rss, status, text


def words(tool, text):
    if tool == "lectern":
        # One document (pretty-printed) or JSON lines, one a document: read them one after another.
        pieces, decoder, at = [], json.JSONDecoder(), 0
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at >= len(text):
                break
            document, at = decoder.raw_decode(text, at)
            pieces += [block.get("text", "") for block in document.get("blocks", [])]
        text = "\n".join(pieces)
    return collections.Counter(w.lower() for w in WORD.findall(text))


def agreement(ours, reference):
    """F1 of two bags of words (1.0: the same words, as often)."""
    common = sum((ours & reference).values())
    if not ours and not reference:
        return 1.0
    if common == 0:
        return 0.0
    precision, recall = common / sum(ours.values()), common / sum(reference.values())
    return round(2 * precision * recall / (precision + recall), 4)


def pages_of(path, password):
    argv = ["pdfinfo"] + (["-upw", password] if password else []) + [path]
    out = subprocess.run(argv, capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", out, re.M)
    return int(match.group(1)) if match else 0


def bench(args):
    tools = ["lectern", "pdftotext", "pymupdf", "pdfminer"]
    rows = []
    for path in args.files:
        name = os.path.basename(path)
        password = PASSWORDS.get(name, "")
        pages = pages_of(path, password)
        row = {"file": name, "pages": pages}
        bags = {}
        for tool in tools:
            seconds, rss, status, text = measure(command(tool, args.lectern, password, [path]), args.runs, args.work)
            row[tool] = {"seconds": round(seconds, 4), "pages_per_second": round(pages / seconds, 1), "peak_rss_mb": rss,
                         "exit": status}
            bags[tool] = words(tool, text)
        for tool in tools:
            row[tool]["word_agreement_with_pdftotext"] = agreement(bags[tool], bags["pdftotext"])
        rows.append(row)
        print("pdf peers: %-40s %s" % (name, "  ".join(
            "%s %.1f p/s (agree %.3f)" % (t, row[t]["pages_per_second"], row[t]["word_agreement_with_pdftotext"]) for t in tools)),
            flush=True)

    plain = [p for p in args.files if not PASSWORDS.get(os.path.basename(p))]
    batch = {"files": len(plain), "pages": sum(r["pages"] for r in rows if not PASSWORDS.get(r["file"]))}
    for tool in tools:
        seconds, rss, status, _ = measure(command(tool, args.lectern, "", plain), args.runs, args.work)
        batch[tool] = {"seconds": round(seconds, 4), "pages_per_second": round(batch["pages"] / seconds, 1), "peak_rss_mb": rss,
                       "exit": status}
    print("pdf peers: one batch of %d files: %s" % (len(plain), "  ".join(
        "%s %.1f p/s" % (t, batch[t]["pages_per_second"]) for t in tools)), flush=True)

    big_pages = pages_of(args.big, "")
    big = {"file": os.path.basename(args.big), "pages": big_pages}
    big_tools = [t for t in tools if not (args.quick and t == "pdfminer")]
    bags = {}
    for tool in big_tools:
        seconds, rss, status, text = measure(command(tool, args.lectern, "", [args.big]), 1 if args.quick else args.runs, args.work)
        big[tool] = {"seconds": round(seconds, 4), "pages_per_second": round(big_pages / seconds, 1), "peak_rss_mb": rss, "exit": status}
        bags[tool] = words(tool, text)
    for tool in big_tools:
        big[tool]["word_agreement_with_pdftotext"] = agreement(bags[tool], bags["pdftotext"])
    if args.quick:
        big["pdfminer"] = None
    print("pdf peers: %d-page PDF: %s" % (big_pages, "  ".join(
        "%s %.1f p/s, %d MB" % (t, big[t]["pages_per_second"], big[t]["peak_rss_mb"]) for t in big_tools)), flush=True)

    import pymupdf
    import pdfminer
    result = {
        "benchmark": "PDF extraction: lectern vs pdftotext, PyMuPDF, pdfminer.six; each run a fresh process, best of %d" % args.runs,
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "word_agreement": "F1 of the bags of lowercased words against pdftotext's text of the same file",
        "versions": {"pymupdf": pymupdf.__version__, "pdfminer.six": pdfminer.__version__},
        "quick": args.quick,
        "files": rows,
        "one_batch": batch,
        "big_pdf": big,
    }
    with open(args.result, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["bench"])
    parser.add_argument("lectern")
    parser.add_argument("work")
    parser.add_argument("result")
    parser.add_argument("--files", nargs="+", required=True)
    parser.add_argument("--big", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    bench(parser.parse_args())


if __name__ == "__main__":
    main()
