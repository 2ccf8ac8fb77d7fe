"""OCR of scans with known text: lectern against pytesseract on the same page images.

    ocr_bench.py WORK RESULTS_JSON LECTERN PDF...

Each PDF (a text PDF) is rasterised with pdftoppm (grey PNG) at 300 and 150 dpi, plus three 300 dpi
variants: rotated by 2 degrees and with Gaussian noise (Pillow), and grey JPEG (pdftoppm's
quality 75, as a scanner writes it); each set of images is wrapped
back into an image-only PDF with img2pdf. lectern reads that PDF (`lectern extract --json`: it
takes each page's image from the PDF at its own resolution and reads it with libtesseract); the
peer, pytesseract (Debian's `tesseract` command, the same libtesseract 5.3.0 and eng model), reads
the images. Word F1 is against `pdftotext` of the original PDF (lower-cased runs of letters and
digits, counted as a multiset). Pages/s is pages over wall time of the whole process, CPU s/page
its user + system time (children included) over pages: on a shared machine wall time is mostly
the load, CPU time what the work costs. Peak RSS from /usr/bin/time (for the peer, its largest
child: one `tesseract` per page). Both sides run with OMP_THREAD_LIMIT=1 (Tesseract's OpenMP
threads, which lectern also limits to one by default): one thread a page on both sides.
Each side runs twice: one page at a time (`lectern extract --ocr-jobs 1`; pytesseract in a loop,
as its users call it) and on every core (lectern's default, one page per core; pytesseract
mapped over a multiprocessing pool of as many processes). Pages/s compares like with like: one
at a time against one at a time, every core against every core.
Last, memory against length: the 150 dpi scan of the first PDF, 2 pages and the same pages ten
times over (20), read by lectern: its peak RSS should not grow with the page count.
"""
import collections
import json
import os
import platform
import re
import subprocess
import sys
import time

from PIL import Image, ImageChops
import img2pdf

WORDS = re.compile(r"[a-z0-9]+")
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\u00ad": ""}


def words(text):
    for k, v in LIGATURES.items():
        text = text.replace(k, v)
    return collections.Counter(WORDS.findall(text.lower()))


def f1(truth, got):
    common = sum((truth & got).values())
    if not common:
        return 0.0
    p, r = common / sum(got.values()), common / sum(truth.values())
    return 2 * p * r / (p + r)


ENV = dict(os.environ, OMP_THREAD_LIMIT="1")
TOOLS = ("lectern", "pytesseract", "lectern_all_cores", "pytesseract_pool")


def timed(cmd, out_path):
    """Runs cmd under /usr/bin/time; returns (wall seconds, peak RSS MB, stdout, CPU seconds)."""
    start = time.perf_counter()
    with open(out_path, "wb") as out:
        proc = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", out_path + ".time"] + cmd, stdout=out, stderr=subprocess.PIPE, env=ENV)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed: {proc.stderr.decode()[-400:]}")
    rss, user, system = open(out_path + ".time").read().split()[-3:]
    return wall, int(rss) / 1024, open(out_path, encoding="utf-8").read(), float(user) + float(system)


def images(pdf, dpi, variant, folder):
    base = os.path.join(folder, "page")
    # JPEG, as scanners write grey pages (img2pdf embeds it as it is: DCTDecode); PNG otherwise
    # (embedded as Flate with PNG predictors, which poppler inflates with its own decoder).
    kind = "jpg" if variant == "jpeg" else "png"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-jpeg" if kind == "jpg" else "-png", pdf, base], check=True)
    paths = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("page") and f.endswith("." + kind))
    if kind == "jpg":
        return paths
    for path in paths:
        img = Image.open(path).convert("L")
        if variant == "rotated":
            img = img.rotate(2, resample=Image.BICUBIC, expand=False, fillcolor=255)
        elif variant == "noisy":
            noise = Image.effect_noise(img.size, 48)
            # Grey speckle over the page: white becomes ~224 +- noise, text stays dark.
            img = Image.blend(img, noise, 0.25)
        img.save(path, dpi=(dpi, dpi))
    return paths


def memory_against_length(work, lectern, pdfs):
    """lectern's peak RSS on the 150 dpi scan of the PDF with most pages (up to 2), once, ten and
    twenty times over in one PDF (2, 20 and 40 pages), one page at a time (--ocr-jobs 1) and with
    the default workers: flat when each worker holds one page at a time. With several workers the
    first pages also fill each worker's allocator arena, so the check is from 20 to 40 pages."""
    folders = []
    for pdf in pdfs:
        folder = os.path.join(work, os.path.splitext(os.path.basename(pdf))[0] + "-clean-150")
        paths = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("page") and f.endswith(".png"))
        folders.append((min(len(paths), 2), pdf, folder, paths[:2]))
    pages, pdf, folder, paths = max(folders, key=lambda f: f[0])
    memory = {"file": os.path.basename(pdf), "dpi": 150, "runs": [], "runs_default_workers": []}
    for copies in (1, 10, 20):
        scan = os.path.join(folder, f"scan-x{copies}.pdf")
        with open(scan, "wb") as f:
            f.write(img2pdf.convert(paths * copies, layout_fun=img2pdf.get_fixed_dpi_layout_fun((150, 150))))
        for key, flags in (("runs", ["--ocr-jobs", "1"]), ("runs_default_workers", [])):
            wall, rss, _, cpu = timed([lectern, "extract", "--json"] + flags + [scan], os.path.join(folder, f"lectern-x{copies}-{key}.json"))
            memory[key].append({"pages": len(paths) * copies, "peak_rss_mb": round(rss, 1), "seconds": round(wall, 1), "cpu_seconds": round(cpu, 1)})
    for key, label in (("runs", "one page at a time"), ("runs_default_workers", "every core")):
        print(f"ocr memory  150 dpi  {memory['file']}  {label}: " + "   ".join(f"{r['pages']} pages: peak RSS {r['peak_rss_mb']:.0f} MB" for r in memory[key]), flush=True)
    return memory


def main():
    work, results, lectern = sys.argv[1], sys.argv[2], sys.argv[3]
    pdfs = sys.argv[4:]
    peer_script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ocr_peer.py")
    variants = [("clean", 300), ("clean", 150), ("rotated", 300), ("noisy", 300), ("jpeg", 300)]
    truth = {}
    for pdf in pdfs:
        truth[pdf] = words(subprocess.run(["pdftotext", pdf, "-"], capture_output=True, check=True, text=True).stdout)
    rows = []
    for variant, dpi in variants:
        row = {"variant": variant, "dpi": dpi, "pages": 0, "files": []}
        totals = {tool: [0.0, 0.0, collections.Counter(), collections.Counter(), 0.0] for tool in TOOLS}
        for pdf in pdfs:
            name = os.path.splitext(os.path.basename(pdf))[0]
            folder = os.path.join(work, f"{name}-{variant}-{dpi}")
            os.makedirs(folder, exist_ok=True)
            for f in os.listdir(folder):
                os.remove(os.path.join(folder, f))
            paths = images(pdf, dpi, variant, folder)
            scan = os.path.join(folder, "scan.pdf")
            with open(scan, "wb") as f:
                f.write(img2pdf.convert(paths, layout_fun=img2pdf.get_fixed_dpi_layout_fun((dpi, dpi))))
            runs = {}
            for tool, cmd, out_name in (
                    ("lectern", [lectern, "extract", "--json", "--ocr-jobs", "1", scan], "lectern.json"),
                    ("pytesseract", [sys.executable, peer_script] + paths, "peer.txt"),
                    ("lectern_all_cores", [lectern, "extract", "--json", scan], "lectern-all.json"),
                    ("pytesseract_pool", [sys.executable, peer_script, "--jobs", str(os.cpu_count())] + paths, "peer-pool.txt")):
                wall, rss, out, cpu = timed(cmd, os.path.join(folder, out_name))
                text = "\n".join(b["text"] for b in json.loads(out)["blocks"]) if tool.startswith("lectern") else out
                runs[tool] = (wall, rss, words(text), cpu)
            row["pages"] += len(paths)
            row["files"].append({"file": os.path.basename(pdf), "pages": len(paths),
                                 **{tool: {"f1": round(f1(truth[pdf], got), 4), "seconds": round(w, 2), "cpu_seconds": round(c, 2), "rss_mb": round(r, 1)}
                                    for tool, (w, r, got, c) in runs.items()}})
            for tool, (w, r, got, c) in runs.items():
                totals[tool][0] += w
                totals[tool][1] = max(totals[tool][1], r)
                totals[tool][2] += truth[pdf]
                totals[tool][3] += got
                totals[tool][4] += c
        for tool, (w, r, t, g, c) in totals.items():
            row[tool] = {"f1": round(f1(t, g), 4), "pages_per_second": round(row["pages"] / w, 3), "peak_rss_mb": round(r, 1), "seconds": round(w, 1),
                         "cpu_seconds": round(c, 1), "cpu_seconds_per_page": round(c / row["pages"], 2)}
        rows.append(row)
        l, p = row["lectern"], row["pytesseract"]
        la, pa = row["lectern_all_cores"], row["pytesseract_pool"]
        print(f"ocr {variant:8} {dpi:3} dpi  {row['pages']:2} pages   word F1 lectern {l['f1']:.3f}  pytesseract {p['f1']:.3f}   "
              f"pages/s one at a time {l['pages_per_second']:.2f} vs {p['pages_per_second']:.2f}, every core {la['pages_per_second']:.2f} vs {pa['pages_per_second']:.2f}   "
              f"CPU s/page {l['cpu_seconds_per_page']:.2f} vs {p['cpu_seconds_per_page']:.2f}   "
              f"peak RSS {l['peak_rss_mb']:.0f} MB vs {p['peak_rss_mb']:.0f} MB (every core {la['peak_rss_mb']:.0f} MB)", flush=True)
    memory = memory_against_length(work, lectern, pdfs)
    tesseract = subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    cpu = ""
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    family = model = ""
    for line in open("/proc/cpuinfo"):
        if line.startswith("cpu family") and not family:
            family = line.split(":", 1)[1].strip()
        if line.startswith("model\t") and not model:
            model = line.split(":", 1)[1].strip()
    result = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "tesseract": tesseract,
              "machine": {"cpu": cpu, "cpu_family": family, "cpu_model": model, "kernel": platform.release(), "cores": os.cpu_count()},
              "omp_thread_limit": ENV["OMP_THREAD_LIMIT"], "targets": {"f1_300": 0.97, "f1_150": 0.93}, "rows": rows, "memory": memory}
    clean300 = next(r for r in rows if r["variant"] == "clean" and r["dpi"] == 300)
    clean150 = next(r for r in rows if r["variant"] == "clean" and r["dpi"] == 150)
    result["verdict"] = {
        "f1_300": clean300["lectern"]["f1"] >= 0.97, "f1_150": clean150["lectern"]["f1"] >= 0.93,
        "speed": all(r["lectern"]["pages_per_second"] >= r["pytesseract"]["pages_per_second"] for r in rows),
        "speed_all_cores": all(r["lectern_all_cores"]["pages_per_second"] >= r["pytesseract_pool"]["pages_per_second"] for r in rows),
        "speed_default": all(r["lectern_all_cores"]["pages_per_second"] >= r["pytesseract"]["pages_per_second"] for r in rows),
        "cpu": all(r["lectern"]["cpu_seconds_per_page"] <= r["pytesseract"]["cpu_seconds_per_page"] for r in rows),
        "memory": memory["runs"][-1]["peak_rss_mb"] <= memory["runs"][0]["peak_rss_mb"] * 1.1
                  and memory["runs_default_workers"][-1]["peak_rss_mb"] <= memory["runs_default_workers"][1]["peak_rss_mb"] * 1.1}
    print(f"ocr: {cpu} (family {family} model {model}), kernel {platform.release()}, {tesseract}; targets: "
          f"F1 300 dpi {'met' if result['verdict']['f1_300'] else 'MISSED'}, 150 dpi {'met' if result['verdict']['f1_150'] else 'MISSED'}, "
          f"pages/s >= pytesseract: one at a time {'met' if result['verdict']['speed'] else 'MISSED'}, "
          f"every core {'met' if result['verdict']['speed_all_cores'] else 'MISSED'}, "
          f"lectern's default against a pytesseract loop {'met' if result['verdict']['speed_default'] else 'MISSED'}, "
          f"CPU s/page <= pytesseract {'met' if result['verdict']['cpu'] else 'MISSED'}, "
          f"peak RSS flat (2 to 40 pages one at a time, 20 to 40 on every core) {'met' if result['verdict']['memory'] else 'MISSED'}")
    with open(results, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
