"""Turns the shared real-world corpus into a BEIR dataset for `lectern eval`, at run time.

    python3 bench/eval_corpus.py [--shared ../shared/corpus] [--set eval/shared] --out DIR [--stats]

Writes DIR/corpus.jsonl (one record a unit, {_id, title, text}) and copies the committed
queries and judgements (SET/queries.jsonl, SET/qrels/{dev,test}.tsv) beside it. The corpus's
licences do not allow copying its text into the repository, so only this script, the queries
and the judgements are committed; the units are cut from ../shared each time, the same way:

  openstax/<module>#<section id>   a top-level section of an OpenStax module (its sub-sections
                                   included); <module>#intro is the text before the first one
  wikipedia/<page>#<Heading_text>  an h2 or h3 section of a saved Wikipedia page (#lead before
                                   the first), from readability's main content (expected.html)
  ocw/<course>/<page short_url>    one page of an OCW course
  ocw/<course>/<video>@MM:SS       a ~90-second window of an OCW lecture transcript
  transcripts/<file>@MM:SS         a ~90-second window of a lecture subtitle file

Standard library only; deterministic. --stats prints, as JSON, the set's size and split and the
content-word overlap (Jaccard) of each query with the text judged to answer it.
"""
import argparse
import csv
import glob
import html
import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_passages import html_blocks, squash  # noqa: E402

WINDOW_SECONDS = 90
COURSES = {
    "8-01sc-classical-mechanics-fall-2016": "8-01sc",
    "6-050j-information-and-entropy-spring-2008": "6-050j",
    "18-435j-quantum-computation-fall-2018": "18-435j",
}
SKIPPED_HEADINGS = {"contents", "see also", "references", "external links", "notes", "further reading",
                    "bibliography", "citations", "sources", "navigation menu", "footnotes"}
CITATION = re.compile(r"\[(\d+|[a-z]|citation needed|note \d+)\]")


def clock(seconds):
    seconds = int(seconds)
    return "%02d:%02d" % (seconds // 60, seconds % 60) if seconds < 3600 else \
        "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def _local(tag):
    return tag.rsplit("}", 1)[-1]


def _cnxml_text(element):
    """Paragraph-level text of a CNXML element: one line a para, list item, term, caption or title."""
    lines = []
    for node in element.iter():
        tag = _local(node.tag)
        if tag in ("para", "item", "meaning", "caption", "term", "title", "problem", "solution") and \
                not any(_local(child.tag) in ("para", "list", "item") for child in node):
            text = squash("".join(node.itertext()))
            if text:
                lines.append(text)
    return lines


def openstax(corpus):
    units = []
    for path in sorted(glob.glob(os.path.join(corpus, "openstax/*/modules/*/index.cnxml"))):
        module = path.split(os.sep)[-2]
        root = ET.parse(path).getroot()
        title = squash("".join(next((e for e in root if _local(e.tag) == "title"), root).itertext()))
        content = next((e for e in root if _local(e.tag) == "content"), None)
        if content is None:
            continue
        intro = []
        for child in content:
            if _local(child.tag) == "section" and "learning-objectives" not in (child.get("class") or ""):
                heading = next((e for e in child if _local(e.tag) == "title"), None)
                name = squash("".join(heading.itertext())) if heading is not None else ""
                lines = _cnxml_text(child)
                if lines and name and lines[0] == name:
                    lines = lines[1:]
                if lines:
                    units.append(("openstax/%s#%s" % (module, child.get("id")), "%s: %s" % (title, name) if name else title, lines))
            else:
                intro += _cnxml_text(child)
        for node in root:
            if _local(node.tag) == "glossary":
                intro += _cnxml_text(node)
        if intro:
            units.append(("openstax/%s#intro" % module, title, intro))
    return units


HEADING = re.compile(r"<h([23])\b[^>]*>(.*?)</h\1>", re.S | re.I)


def wikipedia(corpus):
    units = []
    for folder in sorted(glob.glob(os.path.join(corpus, "wikipedia/*/"))):
        page = os.path.basename(folder.rstrip("/"))
        with open(os.path.join(folder, "expected.html"), encoding="utf-8") as handle:
            markup = handle.read()
        with open(os.path.join(folder, "expected-metadata.json"), encoding="utf-8") as handle:
            title = json.load(handle)["title"].replace(" - Wikipedia", "")
        pieces = HEADING.split(markup)
        sections = [("lead", pieces[0])]
        for index in range(1, len(pieces), 3):
            name = squash(re.sub(r"\[\s*edit\s*\]", "", re.sub(r"<[^>]+>", " ", html.unescape(pieces[index + 1]))))
            name = name or "section %d" % (index // 3 + 1)   # a heading whose text the reader view lost
            sections.append((name, pieces[index + 2]))
        for name, body in sections:
            if name.lower() in SKIPPED_HEADINGS:
                continue
            lines = [CITATION.sub("", b).strip() for b in html_blocks(body)]
            lines = [line for line in lines if line and line.lower() not in SKIPPED_HEADINGS]
            if lines:
                key = "lead" if name == "lead" else name.replace(" ", "_")
                units.append(("wikipedia/%s#%s" % (page, key), title if name == "lead" else "%s: %s" % (title, name), lines))
    return units


SPAN = re.compile(r"<span m='(\d+)'>(.*?)</span>", re.S)


def windows(timed, seconds=WINDOW_SECONDS):
    """[(start seconds, text)] → [(window start, [texts])], a new window every `seconds`."""
    out = []
    for start, text in timed:
        if not out or start - out[-1][0] >= seconds:
            out.append((start, []))
        out[-1][1].append(text)
    return out


def ocw(corpus):
    units = []
    for path in sorted(glob.glob(os.path.join(corpus, "ocw/*_parsed.json"))):
        course_id = os.path.basename(path).replace("_parsed.json", "")
        course = COURSES.get(course_id, course_id)
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        seen = set()
        for page in data.get("course_pages", []):
            lines = html_blocks(page.get("text") or "")
            if sum(len(line.split()) for line in lines) < 30:
                continue
            key = "ocw/%s/%s" % (course, (page.get("short_url") or page.get("uid")).replace(".htm", ""))
            if key in seen:
                key += "-" + page.get("uid", "")[:8]
            seen.add(key)
            units.append((key, page.get("title") or "", lines))
        media = data.get("course_embedded_media") or {}
        for _, video in sorted(media.items(), key=lambda item: int(item[1].get("order_index") or 0)):
            transcript = video.get("transcript") or ""
            timed = [(int(ms) / 1000, squash(html.unescape(re.sub(r"<[^>]+>", " ", text)))) for ms, text in SPAN.findall(transcript)]
            timed = [(start, text) for start, text in timed if text]
            for start, texts in windows(timed):
                units.append(("ocw/%s/%s@%s" % (course, video.get("short_url"), clock(start)), video.get("title") or "", [" ".join(texts)]))
    return units


SRT_TIME = re.compile(r"(\d+):(\d+):(\d+)[,.](\d+)\s*-->")
SOUND = re.compile(r"^\(.*\)$|^\[.*\]$")


def transcripts(corpus):
    units = []
    titles = {}
    metadata = os.path.join(corpus, "transcripts/hf-course-metadata.csv")
    if os.path.exists(metadata):
        with open(metadata, encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                titles[os.path.basename(row["srt_filename"])] = row["title"]
    for path in sorted(glob.glob(os.path.join(corpus, "transcripts/*.srt"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8-sig") as handle:
            cues = re.split(r"\n\s*\n", handle.read().replace("\r\n", "\n"))
        timed = []
        for cue in cues:
            lines = cue.strip().split("\n")
            stamp = next((SRT_TIME.search(line) for line in lines if SRT_TIME.search(line)), None)
            if not stamp:
                continue
            h, m, s, _ = (int(x) for x in stamp.groups())
            text = squash(" ".join(line for line in lines[lines.index(next(l for l in lines if SRT_TIME.search(l))) + 1:]))
            text = re.sub(r"<[^>]+>", "", text).lstrip("- ").strip()
            if text and not SOUND.match(text):
                timed.append((h * 3600 + m * 60 + s, text))
        title = titles.get(name.replace("hf-course-", ""), name)
        for start, texts in windows(timed):
            units.append(("transcripts/%s@%s" % (name, clock(start)), title, [" ".join(texts)]))
    return units


def units(corpus):
    return openstax(corpus) + wikipedia(corpus) + ocw(corpus) + transcripts(corpus)


STOPWORDS = set("""a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves also one two get gets got make makes made use used
using way ways like many much""".split())
WORD = re.compile(r"[a-z0-9]+")


def content_words(text):
    return {w for w in WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1}


def jaccard(a, b):
    return len(a & b) / len(a | b) if a | b else 0.0


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def overlap_stats(records, queries, qrels):
    """Per query: Jaccard with its relevant units' text (graded ≥ 1, joined), the highest
    Jaccard with any one sentence of them, and the share of its words found there."""
    by_id = {r["_id"]: r for r in records}
    unit_j, sentence_j, coverage = [], [], []
    for query_id, judged in qrels.items():
        words = content_words(queries[query_id])
        relevant = [by_id[d]["text"] for d, g in judged.items() if g > 0 and d in by_id]
        if not words or not relevant:
            continue
        text = " ".join(relevant)
        unit_j.append(jaccard(words, content_words(text)))
        sentence_j.append(max(jaccard(words, content_words(s)) for s in sentences(text)))
        coverage.append(len(words & content_words(text)) / len(words))
    mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
    return {"jaccard_relevant_text": round(mean(unit_j), 4), "jaccard_best_sentence": round(mean(sentence_j), 4),
            "query_words_in_relevant_text": round(mean(coverage), 4)}


def read_qrels(path):
    qrels = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            fields = line.rstrip("\n").split("\t")
            if number == 0 or len(fields) != 3:
                continue
            qrels.setdefault(fields[0], {})[fields[1]] = int(fields[2])
    return qrels


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.environ.get("LECTERN_SHARED_CORPUS", os.path.join(here, "..", "shared", "corpus")))
    parser.add_argument("--set", default=os.path.join(here, "eval", "shared"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--stats", action="store_true")
    args = parser.parse_args()
    if not os.path.isdir(args.shared):
        sys.exit("eval_corpus.py: %s is absent (the shared corpus is beside the repository, or set LECTERN_SHARED_CORPUS)" % args.shared)
    records = [{"_id": key, "title": title, "text": "\n\n".join(lines)} for key, title, lines in units(args.shared)]
    os.makedirs(os.path.join(args.out, "qrels"), exist_ok=True)
    with open(os.path.join(args.out, "corpus.jsonl"), "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    shutil.copy(os.path.join(args.set, "queries.jsonl"), os.path.join(args.out, "queries.jsonl"))
    splits = {}
    for split in ("dev", "test"):
        source = os.path.join(args.set, "qrels", split + ".tsv")
        if os.path.exists(source):
            shutil.copy(source, os.path.join(args.out, "qrels", split + ".tsv"))
            splits[split] = read_qrels(source)
    if args.stats:
        with open(os.path.join(args.set, "queries.jsonl"), encoding="utf-8") as handle:
            queries = {q["_id"]: q["text"] for q in map(json.loads, filter(str.strip, handle))}
        ids = {r["_id"] for r in records}
        everything = {q: j for split in splits.values() for q, j in split.items()}
        missing = sorted({d for j in everything.values() for d in j if d not in ids})
        kinds = {}
        for r in records:
            kind = r["_id"].split("/")[0] + ("-transcript" if "@" in r["_id"] else "")
            kinds[kind] = kinds.get(kind, 0) + 1
        report = {"units": len(records), "units_by_source": kinds, "queries": len(everything),
                  "split": {s: len(q) for s, q in splits.items()},
                  "judgements": sum(len(j) for j in everything.values()),
                  "unknown_units": missing, "overlap": overlap_stats(records, queries, everything),
                  "overlap_by_split": {s: overlap_stats(records, queries, q) for s, q in splits.items()}}
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
