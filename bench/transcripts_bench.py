"""Transcript reading speed: `lectern extract` against pysubs2, on a long lecture built from
the real subtitles in the shared corpus, in one run.

    transcripts_bench.py CORPUS LECTERN WORK_DIR RESULT_JSON [--hours H]

The six real SRT files of CORPUS/transcripts are laid end to end, with their times shifted,
until the lecture lasts H hours; the same cues are also written as WebVTT (cue settings, voice
tags, a NOTE). Lectern reads each file into timed sentences (parse, markup and sound-tag
removal, rolling-caption check, sentence and paragraph merging) and prints them as JSON; the
peer, pysubs2, parses the same file and takes each event's plain text (tags removed). Best of three,
CPU seconds (user + system; the machine is shared, so not the wall clock), lectern's process
start and JSON output included (a cost the peer does not pay).
Prints the ratio (peer seconds / lectern seconds: above 1 lectern is faster) and writes
RESULT_JSON with lectern's peak memory.
"""
import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time

TAG = re.compile(r"<[^>]*>")
TIMING = re.compile(r"(\d+):(\d\d):(\d\d)[,.](\d{3}) --> (\d+):(\d\d):(\d\d)[,.](\d{3})")


def read_cues(path):
    """(start, end, text) of every cue of a real SRT file, read plainly."""
    with open(path, encoding="utf-8-sig") as f:
        blocks = f.read().replace("\r\n", "\n").split("\n\n")
    cues = []
    for block in blocks:
        lines = block.strip("\n").split("\n")
        for i, line in enumerate(lines):
            m = TIMING.search(line)
            if m:
                g = [int(x) for x in m.groups()]
                start = g[0] * 3600 + g[1] * 60 + g[2] + g[3] / 1000
                end = g[4] * 3600 + g[5] * 60 + g[6] + g[7] / 1000
                cues.append((start, end, "\n".join(lines[i + 1:])))
                break
    return cues


def stamp(seconds, separator):
    ms = int(round(seconds * 1000))
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}{separator}{ms % 1000:03d}"


def build_lecture(corpus, hours):
    files = sorted(os.path.join(corpus, "transcripts", n) for n in os.listdir(os.path.join(corpus, "transcripts"))
                   if n.endswith(".srt"))
    real = [read_cues(f) for f in files]
    lecture = []
    offset = 0.0
    while offset < hours * 3600:
        for cues in real:
            for start, end, text in cues:
                lecture.append((offset + start, offset + end, text))
            offset += cues[-1][1] + 2.0
    return lecture, len(files)


def write_srt(cues, path):
    with open(path, "w", encoding="utf-8") as f:
        for i, (start, end, text) in enumerate(cues, 1):
            f.write(f"{i}\n{stamp(start, ',')} --> {stamp(end, ',')}\n{text}\n\n")


def write_vtt(cues, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("WEBVTT - bench lecture\n\nNOTE laid end to end from real subtitles\n\n")
        for i, (start, end, text) in enumerate(cues, 1):
            f.write(f"c{i}\n{stamp(start, '.')} --> {stamp(end, '.')} align:start line:90%\n<v Instructor>{text}</v>\n\n")


def cpu_seconds():
    """CPU time (user + system) of this process and its finished children: unlike the wall
    clock, not stretched by other work on a shared machine."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def best_of(runs, action):
    best = None
    for _ in range(runs):
        start = cpu_seconds()
        result = action()
        elapsed = cpu_seconds() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("lectern")
    parser.add_argument("work")
    parser.add_argument("result_json")
    parser.add_argument("--hours", type=float, default=10)
    args = parser.parse_args()

    import pysubs2

    cues, sources = build_lecture(args.corpus, args.hours)
    os.makedirs(args.work, exist_ok=True)
    paths = {"srt": os.path.join(args.work, "lecture.srt"), "vtt": os.path.join(args.work, "lecture.vtt")}
    write_srt(cues, paths["srt"])
    write_vtt(cues, paths["vtt"])

    results = {}
    for kind, path in paths.items():
        def run_lectern():
            out = subprocess.run([args.lectern, "extract", path, "--json"], check=True, capture_output=True)
            return json.loads(out.stdout)

        def run_peer():
            subs = pysubs2.load(path, encoding="utf-8")
            return [TAG.sub("", event.plaintext) for event in subs]

        lectern_seconds, document = best_of(3, run_lectern)
        peer_seconds, texts = best_of(3, run_peer)
        words_in = sum(len(re.findall(r"[A-Za-z0-9']+", t)) for t in texts)
        words_out = sum(len(re.findall(r"[A-Za-z0-9']+", b["text"])) for b in document["blocks"])
        results[kind] = {
            "bytes": os.path.getsize(path),
            "cues": len(cues),
            "lectern_cpu_seconds": round(lectern_seconds, 3),
            "pysubs2_cpu_seconds": round(peer_seconds, 3),
            "ratio": round(peer_seconds / lectern_seconds, 2),
            "lectern_sentences": len(document["blocks"]),
            "words_peer": words_in,
            "words_lectern": words_out,
        }
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result = {
        "benchmark": "transcript reading: lectern extract (parse + sentences) vs pysubs2 (parse + plain text)",
        "lecture_hours": round(cues[-1][1] / 3600, 2),
        "source_files": sources,
        "formats": results,
        "lectern_peak_rss_mib": round(peak_kib / 1024, 1),
        "pysubs2": pysubs2.__version__,
        "python": sys.version.split()[0],
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with open(args.result_json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    for kind, r in results.items():
        print(f"transcripts {kind}: {r['cues']} cues ({result['lecture_hours']} h, {r['bytes'] // 1024} KiB): "
              f"lectern {r['lectern_cpu_seconds']:.2f} s, pysubs2 {r['pysubs2_cpu_seconds']:.2f} s CPU, ratio {r['ratio']:.2f}x; "
              f"{r['lectern_sentences']} sentences, words {r['words_lectern']} of {r['words_peer']}")
    print(f"transcripts: lectern peak memory {result['lectern_peak_rss_mib']} MiB")


if __name__ == "__main__":
    main()
