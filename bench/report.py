"""One table from every benchmark's result: bench/results/latest.md and latest.json.

    report.py RESULTS_DIR [STEPS_TSV]

Reads what the bench scripts wrote in RESULTS_DIR (pdf.json, pdf_peers.json, transcripts.json,
minilm.json, search.json, eval.json, e2e.json, summary.json, ocr.json, profile-*.txt) and STEPS_TSV (name, exit status,
seconds of each step of bench/run_all.sh). A ratio is always "how many times faster lectern is"
(peer time / lectern time): above 1 lectern wins. A result older than this run (a step skipped
by QUICK=1 or absent) is shown with its own date.
"""
import datetime
import json
import os
import platform
import subprocess
import sys


def load(directory, name):
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def machine():
    info = {"arch": platform.machine(), "cores": os.cpu_count(), "kernel": platform.release()}
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in lscpu.splitlines():
            key, _, value = line.partition(":")
            value = value.strip()
            if key == "Model name":
                info["cpu"] = value
            elif key == "CPU family":
                info["cpu_family"] = value
            elif key == "Model":
                info["cpu_model"] = value
            elif key == "L2 cache":
                info["l2"] = value
            elif key == "L3 cache":
                info["l3"] = value
            elif key == "Flags":
                flags = set(value.split())
                info["simd"] = " ".join(f for f in ["avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni"] if f in flags)
    except OSError:
        pass
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
        info["memory_gb"] = round(kb / 1024 / 1024, 1)
    except OSError:
        pass
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    info["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    info["openblas_coretype"] = os.environ.get("OPENBLAS_CORETYPE", "(unset)")
    with open("/proc/loadavg") as f:
        info["load_average"] = " ".join(f.read().split()[:3])
    return info


def per_cpu(minilm, cpu_ms):
    """GFLOP per CPU-second: steadier than wall time on a shared machine."""
    if not minilm.get("gflop_per_passage") or not cpu_ms:
        return None
    return round(minilm["gflop_per_passage"] / (cpu_ms / 1000), 1)


def ratio(peer, ours):
    if not peer or not ours:
        return None
    return round(peer / ours, 2)


def main():
    directory = sys.argv[1]
    steps = {}
    if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
        with open(sys.argv[2]) as f:
            for line in f:
                name, status, seconds = line.rstrip("\n").split("\t")
                steps[name] = {"exit": int(status), "seconds": int(seconds)}
    quick = bool(os.environ.get("QUICK"))
    rows = []  # (area, measure, lectern, peer name, peer value, ratio, target, note)

    def row(area, measure, ours, peer_name, peer, ratio_value, target="", note=""):
        rows.append({"area": area, "measure": measure, "lectern": ours, "peer": peer_name, "peer_value": peer,
                     "ratio": ratio_value, "target": target, "note": note})

    pdf, peers = load(directory, "pdf.json"), load(directory, "pdf_peers.json")
    pdf_files = (peers or {}).get("files") or []
    if peers:
        batch = peers["one_batch"]
        for tool in ["pdftotext", "pymupdf", "pdfminer"]:
            if batch.get(tool):
                row("PDF", "shared PDFs, one batch (%d files, %d pages), pages/s" % (batch["files"], batch["pages"]),
                    batch["lectern"]["pages_per_second"], tool, batch[tool]["pages_per_second"],
                    ratio(batch[tool]["seconds"], batch["lectern"]["seconds"]), "≥ 0.8× pdftotext" if tool == "pdftotext" else "")
        total = {t: sum(r[t]["seconds"] for r in peers["files"]) for t in ["lectern", "pdftotext", "pymupdf", "pdfminer"]}
        pages = sum(r["pages"] for r in peers["files"])
        for tool in ["pdftotext", "pymupdf", "pdfminer"]:
            row("PDF", "shared PDFs each alone (%d files, %d pages; a process each), pages/s" % (len(peers["files"]), pages),
                round(pages / total["lectern"], 1), tool, round(pages / total[tool], 1), ratio(total[tool], total["lectern"]),
                "≥ 0.8× pdftotext" if tool == "pdftotext" else "")
        # Word agreement with pdftotext (F1 of the bags of words), pages-weighted over the files.
        def agreement(tool):
            scored = [(r["pages"], r[tool].get("word_agreement_with_pdftotext")) for r in peers["files"] if r.get(tool)]
            scored = [(pages, value) for pages, value in scored if value is not None]
            if not scored:
                return None
            return round(sum(pages * value for pages, value in scored) / sum(pages for pages, _ in scored), 4)
        ours = agreement("lectern")
        for tool in ["pymupdf", "pdfminer"]:
            theirs = agreement(tool)
            if ours is not None and theirs is not None:
                row("PDF", "word agreement with pdftotext (F1, pages-weighted over %d files; per file below)" % len(peers["files"]),
                    ours, tool, theirs, round(ours / theirs, 2) if theirs else None)
        big = peers["big_pdf"]
        for tool in ["pdftotext", "pymupdf", "pdfminer"]:
            if big.get(tool):
                row("PDF", "%d-page PDF (pdfunite), pages/s" % big["pages"], big["lectern"]["pages_per_second"], tool,
                    big[tool]["pages_per_second"], ratio(big[tool]["seconds"], big["lectern"]["seconds"]))
            else:
                row("PDF", "%d-page PDF (pdfunite), pages/s" % big["pages"], big["lectern"]["pages_per_second"], tool, None, None,
                    note="not run with QUICK=1")
        for tool in ["pdftotext", "pymupdf", "pdfminer"]:
            if big.get(tool):
                row("PDF", "%d-page PDF, peak RSS MB (lower is better)" % big["pages"], big["lectern"]["peak_rss_mb"], tool,
                    big[tool]["peak_rss_mb"], ratio(big[tool]["peak_rss_mb"], big["lectern"]["peak_rss_mb"]),
                    "< 300 MB" if tool == "pdftotext" else "")
    elif pdf:
        big = pdf["big_pdf"]
        row("PDF", "%d-page PDF, pages/s" % big["pages"], big["lectern_pages_per_second"], "pdftotext",
            big["pdftotext_pages_per_second"], big["ratio"], "≥ 0.8×")

    transcripts = load(directory, "transcripts.json")
    if transcripts:
        for fmt, values in transcripts["formats"].items():
            row("Transcripts", "%.1f h lecture, %s, CPU s (lower is better)" % (transcripts["lecture_hours"], fmt.upper()),
                values["lectern_cpu_seconds"], "pysubs2", values["pysubs2_cpu_seconds"], values["ratio"])

    minilm = load(directory, "minilm.json")
    if minilm:
        row("Embedding", "MiniLM float32, passages/s (%d passages, %.0f tokens, %d threads)" % (
            minilm["passages"], minilm.get("mean_tokens", 0), minilm["threads"]),
            minilm["lectern_passages_per_second"], "sentence-transformers", minilm["sentence_transformers_passages_per_second"],
            minilm["ratio"], "≥ 1.5×", "worst cosine %.6f; %s GFLOP/s vs %s (wall); per CPU-second %s vs %s GFLOP/s, CPU-time ratio %.2f×" % (
                minilm["worst_cosine"], minilm.get("lectern_gflops"), minilm.get("sentence_transformers_gflops"),
                per_cpu(minilm, minilm["lectern_cpu_ms_per_passage"]), per_cpu(minilm, minilm["sentence_transformers_cpu_ms_per_passage"]),
                minilm["cpu_ratio"]))
        for name, other in minilm.get("other_embedders", {}).items():
            row("Embedding", "%s, passages/s" % name, other["passages_per_second"], "sentence-transformers",
                minilm["sentence_transformers_passages_per_second"], other["ratio"], "≥ 2×",
                "%s GFLOP/s (wall), %s per CPU-second, CPU-time ratio %.2f×; worst cosine %.5f to float32, %.5f to sentence-transformers" % (
                    other["gflops"], per_cpu(minilm, other["cpu_ms_per_passage"]),
                    minilm["sentence_transformers_cpu_ms_per_passage"] / other["cpu_ms_per_passage"],
                    other["worst_cosine_to_float32"], other["worst_cosine_to_sentence_transformers"]))

        levels = minilm.get("levels") or {}
        for level in levels.get("rows", []):
            caps = level["peer_caps"]
            note = "encoder %s GFLOP per CPU-second vs %s" % (level["encoder_gflop_per_cpu_second"],
                                                              level["sentence_transformers_gflop_per_cpu_second"])
            if level.get("encoder_share_of_peak") is not None:
                note += " (%.0f%% of this level's peak, %s GFLOP/s a core)" % (100 * level["encoder_share_of_peak"],
                                                                             level["peak_gflops_per_core"])
            if level.get("gemm_gflops"):
                note += "; matrix products alone %s GFLOP/s" % level["gemm_gflops"]
                if level.get("gemm_share_of_peak") is not None:
                    note += " (%.0f%%)" % (100 * level["gemm_share_of_peak"])
            note += "; peer %s, torch sees %s; worst cosine %.6f to the peer, %.7f to the widest level" % (
                ", ".join("%s=%s" % kv for kv in caps.items()), level.get("peer_cpu_capability"),
                level["worst_cosine_to_sentence_transformers"], level["worst_cosine_to_widest_level"])
            row("Embedding", "MiniLM float32, %s kernels, CPU ms a passage (%d passages, %.0f tokens, best of %d turns; "
                "lower is better)" % (level["level"], levels["passages"], levels.get("mean_tokens") or 0, levels["rounds"]),
                level["lectern_cpu_ms_per_passage"], "sentence-transformers capped at %s" % caps["ONEDNN_MAX_CPU_ISA"],
                level["sentence_transformers_cpu_ms_per_passage"], level["cpu_ratio"],
                "≥ 1.0×" if level["level"] == "portable" else "≥ 1.5×", note)
            for entry in level.get("int8", []):
                note8 = "%.2f× float32's time; cosine to float32 worst %.5f, mean %.5f" % (
                    entry["speedup_over_float32"], entry["worst_cosine_to_float32"], entry["mean_cosine_to_float32"])
                if entry.get("products_gops"):
                    note8 += "; int8 products alone %s GOPS" % entry["products_gops"]
                row("Embedding", "MiniLM int8, %s level, %s kernel, CPU ms a passage (same turns; lower is better)" % (
                    level["level"], entry["kernel"]), entry["lectern_cpu_ms_per_passage"],
                    "sentence-transformers capped at %s" % caps["ONEDNN_MAX_CPU_ISA"],
                    level["sentence_transformers_cpu_ms_per_passage"], entry["cpu_ratio"],
                    "≥ 1.0×" if level["level"] == "portable" else "≥ 1.5×", note8)

    search = load(directory, "search.json")
    if search:
        for library in search.get("libraries", []):
            name = library["name"]
            if "peers" in library:
                peers = library["peers"]
                ours = library["in_process"]["semantic"]["search_without_embedding"]
                for label, key in [("numpy in-process", "numpy_inprocess"), ("FAISS IndexFlatIP", "faiss_flat_ip"),
                                   ("sqlite-vec", "sqlite_vec"), ("numpy from .npy (a process each)", "numpy_one_shot")]:
                    theirs = peers.get(key)
                    if theirs:
                        row("Search", "%s passages, semantic top-10, p50 ms (lower is better)" % name, ours["p50_ms"], label,
                            theirs["p50_ms"], round(theirs["p50_ms"] / ours["p50_ms"], 2) if ours["p50_ms"] else None, "",
                            "lectern: a whole search in process (int8 scan, then the hits read with their snippets); the peer: the scan alone, ids only; recall@10 %s against the exact scan" % peers.get("compact_recall_at_10"))
                for mode in ("keyword", "hybrid"):
                    timing = library["in_process"][mode]["search"]
                    row("Search", "%s passages, %s top-10, p50 / p95 ms" % (name, mode), timing["p50_ms"], "", None, None, "",
                        "p95 %s ms (in process, hashing embedder)" % timing["p95_ms"])
            else:
                cli = library.get("cli", {})
                if "hybrid" in cli and "stats" in cli:
                    row("Search", "%s: a `lectern search` call, hybrid, p50 ms" % name, cli["hybrid"]["p50_ms"],
                        "`lectern stats` (start and open)", cli["stats"]["p50_ms"], None, "",
                        "keyword %s ms, semantic %s ms" % (cli.get("keyword", {}).get("p50_ms"), cli.get("semantic", {}).get("p50_ms")))

    evaluation = load(directory, "eval.json")
    if evaluation:
        test = evaluation["splits"]["test"]["results"]
        note = "" if "eval" in steps else "not re-run by QUICK=1 (committed result)"
        for mode, peer in [("hybrid", "rrf"), ("semantic", "minilm"), ("keyword", "bm25")]:
            ours, theirs = test.get("lectern-" + mode), test.get(peer)
            if ours and theirs:
                row("Retrieval (eval test split)", "%s nDCG@10 (higher is better)" % mode, ours["ndcg@10"],
                    {"rrf": "BM25+MiniLM RRF", "minilm": "sentence-transformers MiniLM", "bm25": "rank-bm25"}[peer],
                    theirs["ndcg@10"], round(ours["ndcg@10"] / theirs["ndcg@10"], 2), "", note)

    e2e = load(directory, "e2e.json")
    if e2e:
        row("End to end", "ingest the shared corpus (%s passages, %s), s" % (e2e["passages"], e2e["embedder"]),
            e2e["ingest"]["seconds"], "", None, None, "", "peak RSS %d MB, exit %d%s" % (
                e2e["ingest"]["peak_rss_mb"], e2e["ingest"]["exit"],
                (" (%d inputs not read; the first: %s)" % (
                    e2e["ingest"]["failed"], e2e["ingest"].get("first_failure") or "?")) if e2e["ingest"].get("failed") else ""))
        again = e2e["reingest_unchanged"]
        row("End to end", "ingest again, nothing changed, s", again["seconds"], "first run", e2e["ingest"]["seconds"],
            None, "≤ 5% of first", "%.1f%% of the first" % again["percent_of_first"])
        for key, label in [("curriculum_build", "curriculum build"), ("cards_generate", "cards generate")]:
            value = e2e.get(key)
            if value is None:
                row("End to end", label + ", s", None, "", None, None, "", "command not in this build yet")
            else:
                row("End to end", label + ", s", value["seconds"], "", None, None, "",
                    "exit %d%s" % (value["exit"], (": " + value["error"]) if value.get("error") else ""))

    summary = load(directory, "summary.json")
    if summary:
        ours = summary["systems"]["lectern"]
        names = {"lead": "lead (first words)", "textrank": "sumy TextRank", "lexrank": "sumy LexRank", "lsa": "sumy LSA"}
        for key, label in [("rouge2", "ROUGE-2"), ("rougeLsum", "ROUGE-L"), ("rouge1", "ROUGE-1")]:
            for peer, peer_name in names.items():
                theirs = summary["systems"].get(peer)
                if theirs:
                    row("Topic summaries (%d book modules, summary withheld)" % summary["modules"], "%s F1 vs the authors' summary" % label,
                        ours[key], peer_name, theirs[key], round(ours[key] / theirs[key], 2) if theirs[key] else None,
                        "beat every peer" if key != "rouge1" else "", "cut to the authors' length")

    ocr = load(directory, "ocr.json")
    if ocr:
        for r in ocr["rows"]:
            area = "OCR of scans (%s, %d dpi, %d pages)" % (r["variant"], r["dpi"], r["pages"])
            ours, theirs = r["lectern"], r["pytesseract"]
            target = {("clean", 300): "≥ 0.97", ("clean", 150): "≥ 0.93"}.get((r["variant"], r["dpi"]), "")
            row(area, "word F1 vs pdftotext of the original", ours["f1"], "pytesseract", theirs["f1"],
                round(ours["f1"] / theirs["f1"], 2) if theirs["f1"] else None, target, ocr.get("tesseract", ""))
            row(area, "pages/s, one page at a time", ours["pages_per_second"], "pytesseract", theirs["pages_per_second"],
                round(ours["pages_per_second"] / theirs["pages_per_second"], 2) if theirs["pages_per_second"] else None,
                "≥ the peer's", "whole process, wall time; --ocr-jobs 1 against a pytesseract loop")
            if "lectern_all_cores" in r:
                every, pool = r["lectern_all_cores"], r["pytesseract_pool"]
                row(area, "pages/s, every core", every["pages_per_second"], "pytesseract pool", pool["pages_per_second"],
                    round(every["pages_per_second"] / pool["pages_per_second"], 2) if pool["pages_per_second"] else None,
                    "≥ the peer's", "lectern's default (a page per core) against pytesseract over a process pool")
            if "cpu_seconds_per_page" in ours:
                row(area, "CPU s/page", ours["cpu_seconds_per_page"], "pytesseract", theirs["cpu_seconds_per_page"],
                    round(theirs["cpu_seconds_per_page"] / ours["cpu_seconds_per_page"], 2) if ours["cpu_seconds_per_page"] else None,
                    "", "user + system, OMP_THREAD_LIMIT=%s both" % ocr.get("omp_thread_limit", "?"))
            row(area, "peak RSS, MB", ours["peak_rss_mb"], "pytesseract", theirs["peak_rss_mb"],
                round(theirs["peak_rss_mb"] / ours["peak_rss_mb"], 2) if ours["peak_rss_mb"] else None, "", "the peer: its largest process")
        for key, label in (("runs", "one page at a time"), ("runs_default_workers", "every core")):
            runs = ocr.get("memory", {}).get(key, [])
            if len(runs) >= 2:
                first, last = runs[0] if key == "runs" else runs[-2], runs[-1]
                row("OCR memory against length (%d dpi scan, %s)" % (ocr["memory"]["dpi"], label), "peak RSS, MB: %d pages / %d pages" % (last["pages"], first["pages"]),
                    last["peak_rss_mb"], "", first["peak_rss_mb"], round(last["peak_rss_mb"] / first["peak_rss_mb"], 2) if first["peak_rss_mb"] else None,
                    "flat", "lectern against itself")

    profiles = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith("profile-") and name.endswith(".txt"):
            with open(os.path.join(directory, name)) as f:
                profiles[name[len("profile-"):-4]] = f.read()

    info = machine()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    result = {"date": now, "quick": quick, "machine": info, "steps": steps, "rows": rows,
              "sources": {name: (load(directory, name) or {}).get("date") for name in
                          ["pdf.json", "pdf_peers.json", "transcripts.json", "minilm.json", "search.json", "eval.json", "e2e.json",
                           "summary.json", "ocr.json"]}}
    with open(os.path.join(directory, "latest.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2, ensure_ascii=False)
        f.write("\n")

    def show(value):
        return "—" if value is None else str(value)

    lines = ["# Lectern benchmarks: `make bench%s`" % (" QUICK=1" if quick else ""), "",
             "Measured %s on %s%s (%s cores, %s GB; %s; SIMD: %s; L2 %s, L3 %s), kernel %s, OPENBLAS_CORETYPE=%s; "
             "load average at the end %s (the machine is shared: absolute figures move with the load, the peers "
             "are measured in the same run, turn by turn where the script allows)." % (
                 now, info.get("cpu", "?"),
                 " family %s model %s" % (info["cpu_family"], info.get("cpu_model", "?")) if info.get("cpu_family") else "",
                 info.get("cores"), info.get("memory_gb", "?"), info.get("os", "?"), info.get("simd", "?"),
                 info.get("l2", "?"), info.get("l3", "?"), info.get("kernel"), info["openblas_coretype"], info["load_average"]),
             "", "Ratio: how many times faster (or, for quality rows, better) lectern is than the peer; above 1 lectern wins.", "",
             "| Area | Measure | Lectern | Peer | Peer's | Ratio | Target | Note |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["area"], r["measure"], show(r["lectern"]), r["peer"] or "", show(r["peer_value"]),
            "" if r["ratio"] is None else "%.2f×" % r["ratio"], r["target"], r["note"]))
    if pdf_files:
        lines += ["", "Word agreement with pdftotext per file (F1 of the bags of lower-cased words; 1.0 is the same words):", "",
                  "| File | Pages | lectern | PyMuPDF | pdfminer.six |", "|---|---|---|---|---|"]
        for r in pdf_files:
            lines.append("| %s | %d | %s | %s | %s |" % (r["file"], r["pages"], *[
                show((r.get(tool) or {}).get("word_agreement_with_pdftotext")) for tool in ["lectern", "pymupdf", "pdfminer"]]))
    lines += ["", "Result files and their dates (a file older than this run was not re-run by it): " + ", ".join(
        "%s %s" % (name, date) for name, date in result["sources"].items() if date)]
    lines += ["", "Steps of this run: " + ", ".join("%s %ds%s" % (n, s["seconds"], "" if s["exit"] == 0 else " (exit %d)" % s["exit"])
                                                      for n, s in steps.items()), ""]
    lines += ["## Where lectern is slower, and where the time goes", ""]
    lines += slower_notes(rows, pdf, transcripts, minilm, profiles)
    for name, text in profiles.items():
        lines += ["", "### Profile: %s" % name, "", "```", text.strip(), "```"]
    with open(os.path.join(directory, "latest.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("bench: wrote %s and latest.json (%d rows)" % (os.path.join(directory, "latest.md"), len(rows)))


def profile_shares(text):
    """{function: percent} from a profile's "by function" lines."""
    shares = {}
    if not text:
        return shares
    for line in text.split("## by function", 1)[-1].splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0].endswith("%") and parts[2] == "[.]":
            shares[parts[3]] = shares.get(parts[3], 0) + float(parts[0][:-1])
    return shares


def minilm_note(minilm, profile):
    """Where MiniLM's time goes, from this run's figures: the encoder's GFLOP per CPU-second
    against the CPU's measured FMA peak (bench/fma_peak.c), and the profile's shares."""
    peak = minilm.get("fma_peak_per_core") or {}
    ours = per_cpu(minilm, minilm["lectern_cpu_ms_per_passage"])
    theirs = per_cpu(minilm, minilm["sentence_transformers_cpu_ms_per_passage"])
    text = "MiniLM (on %s): lectern's whole float32 encoder (products, attention, GELU, LayerNorm, pooling) runs at %s GFLOP " \
           "per CPU-second against sentence-transformers' %s" % (minilm.get("cpu", "this run's CPU"), ours, theirs)
    best = peak.get("avx512_gflops") or peak.get("avx2_gflops")
    if best and ours and theirs:
        text += ", %.0f%% and %.0f%% of this CPU's float32 multiply-add peak of %s GFLOP/s a core (%s; measured by " \
                "bench/fma_peak.c%s)" % (100 * ours / best, 100 * theirs / best, best,
                                         "AVX-512" if peak.get("avx512_gflops") else "AVX2",
                                         ", AVX2 %s" % peak["avx2_gflops"] if peak.get("avx512_gflops") and peak.get("avx2_gflops") else "")
    text += "."
    shares = profile_shares(profile)
    if shares:
        def share(*keys):
            return sum(v for k, v in shares.items() if any(key in k for key in keys))
        text += (" In the `minilm` profile below the matrix products (Sources/CGemm) take %.0f%% of the samples, "
                 "softmax %.1f%%, GELU %.1f%%, LayerNorm %.1f%%, packing attention's keys %.1f%%." % (
                     share("gemm_avx512", "gemm_avx2", "gemm_portable", "tile_avx2", "tile_portable", "full_tile",
                           "pack_six_rows", "pack_micro_panels"), share("softmax"), share("gelu"),
                     share("layer_norm"), share("gemm_pack")))
    rows = (minilm.get("levels") or {}).get("rows", [])
    if rows:
        text += (" Per kernel level (the rows above, each against sentence-transformers capped at the same instruction "
                 "set, on the same CPU): " + "; ".join(
                     "%s %s ms of CPU a passage against %s ms (%.2f×), the encoder at %s GFLOP per CPU-second%s%s" % (
                         r["level"], r["lectern_cpu_ms_per_passage"], r["sentence_transformers_cpu_ms_per_passage"],
                         r["cpu_ratio"], r["encoder_gflop_per_cpu_second"],
                         " (%.0f%% of %s)" % (100 * r["encoder_share_of_peak"], r["peak_gflops_per_core"])
                         if r.get("encoder_share_of_peak") is not None else "",
                         ", its products alone %s GFLOP/s (%.0f%%)" % (r["gemm_gflops"], 100 * r["gemm_share_of_peak"])
                         if r.get("gemm_share_of_peak") is not None else "")
                     for r in rows) + ".")
    text += (" What is left to gain in float32 is in the products themselves; bfloat16 (vdpbf16ps, two "
             "multiply-adds a lane) raises their ceiling")
    if peak.get("avx512_bf16_gflops"):
        text += " to %s GFLOP/s a core here" % peak["avx512_bf16_gflops"]
    text += ", which is the minilm-bf16 row (its own embedder name; not the default, see README)."
    return text


def slower_notes(rows, pdf, transcripts, minilm, profiles):
    notes = []
    slow = [r for r in rows if r["ratio"] is not None and r["ratio"] < 1 and "nDCG" not in r["measure"]]
    if not slow:
        notes.append("Nowhere in this run.")
    for r in slow:
        notes.append("- **%s, %s vs %s: %.2f×.**" % (r["area"], r["measure"], r["peer"], r["ratio"]))
    notes.append("")
    if any(r["area"] == "PDF" for r in slow) and pdf:
        start = pdf["process_start"]
        notes.append(
            "PDF: lectern reads pages with poppler-glib, the engine pdftotext uses, so per page they cost about the same; "
            "what differs is per process and per block. A lectern process starts in %.3f s against pdftotext's %.3f s "
            "(`lectern --version` vs `pdftotext -v`), and `extract` then opens poppler-glib with dlopen, which binds ~50 "
            "shared libraries (GLib, cairo, NSS…): in the one-file profile below the dynamic linker (`ld-linux`: "
            "`do_lookup_x`, `_dl_relocate_object`) and the kernel (page faults mapping those libraries) take most of "
            "the samples, then Swift's runtime (protocol conformance lookup at start), and poppler itself a small share. On one-page files that fixed cost is most of the time. What would "
            "close the gap: prelinking is gone from Debian, so fewer symbol lookups (RTLD_LAZY instead of RTLD_NOW for "
            "poppler's dependency chain, or loading poppler's C++ core without the GLib wrapper), and one lectern "
            "process for many files (the batch row, where the start is paid once). PyMuPDF (MuPDF, C) keeps its own "
            "text layout and is faster per page than poppler; matching it means a different PDF engine, which lectern "
            "does not plan: it needs poppler's structure (outline, fonts) for sections." % (
                start["lectern_version_seconds"], start["pdftotext_version_seconds"]))
        notes.append("")
    if any(r["area"] == "Transcripts" for r in slow) and transcripts:
        notes.append(
            "Transcripts: pysubs2 only parses cues into plain text; lectern also splits the text into timed sentences "
            "(%d of them) and keeps each sentence's start time, which is the part that costs: the comparison is of more "
            "work against less, and lectern's time includes its process start and the JSON it prints. The "
            "`transcripts` profile below shows which functions take it." % transcripts["formats"]["srt"]["lectern_sentences"])
        notes.append("")
    searches = [r for r in slow if r["area"] == "Search"]
    if searches:
        sizes = {}
        for r in rows:
            if r["area"] == "Search" and "semantic top-10" in r["measure"] and r["peer"] == "numpy in-process":
                sizes[r["measure"].split(" passages")[0]] = (r["lectern"], r["peer_value"], r["ratio"])
        text = ("Search: the lectern figure is a whole search as a user gets it, in process: the int8 scan of every "
                "vector, then the ten hits read from SQLite with their text, snippet (the window with the query's words "
                "marked) and link; the exact-scan peers return ten row numbers from a float32 matrix already in memory. "
                "Reading and shaping ten hits is a fixed cost of a millisecond or two that no peer pays, so at small "
                "sizes the ratio is below 1 and it rises with the size, where the scan (a quarter of float32's bytes) "
                "is most of the time")
        if sizes:
            text += ": " + ", ".join("%s passages %s ms against numpy's %s (%.2f×)" % (name, ours, theirs, ratio)
                                     for name, (ours, theirs, ratio) in sizes.items())
        text += (". Not reading the hits would close it and leave nothing to show; a search's own costs were cut "
                 "instead (a hit's link reads its document's headings through a partial index; snippets are found "
                 "on Unicode scalars).")
        notes += [text, ""]
    if minilm:
        notes.append(minilm_note(minilm, profiles.get("minilm")))
    return notes


if __name__ == "__main__":
    main()
