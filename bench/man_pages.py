"""A library of real text for the HNSW index's recall (docs/benchmarks.md, PostgreSQL): the
machine's man pages (/usr/share/man, sections 1, 8, 5, 7, 2, 3; gzip'd troff) as markdown, one
file a page, the troff requests and escapes stripped crudely (enough for the hashing embedder and
FTS, not for reading), at most 2,000 of gcloud's near-identical pages, until WORDS words are
written; and up to 100 of the pages' NAME descriptions ("read a directory") as JSON lines, the
users' kind of query about such a library (bench/hnsw_sweep.py --questions).

    python3 bench/man_pages.py bench/work/man/pages bench/work/man/queries.jsonl 9000000
"""
import gzip
import json
import os
import random
import re
import sys

ESCAPES = [(re.compile(r"\\f(\[[^\]]*\]|\(..|.)"), ""), (re.compile(r"\\\((..)"), " "), (re.compile(r"\\\[[^\]]*\]"), " "),
           (re.compile(r"\\[-]"), "-"), (re.compile(r"\\[&|^ ]"), " "), (re.compile(r"\\e"), "\\\\"),
           (re.compile(r"\\s[-+]?\d"), ""), (re.compile(r"\\\*.|\\\*\(..|\\\*\[[^\]]*\]"), ""),
           (re.compile(r"\\[\"#].*$"), ""), (re.compile(r"\\."), "")]
HEADING = re.compile(r"^\.(SH|SS)\s*(.*)$")
INLINE = re.compile(r"^\.(B|I|BR|IR|RB|RI|BI|IB|TP|IP|SM|SB)\s+(.*)$")


def clean(text):
    for pattern, replacement in ESCAPES:
        text = pattern.sub(replacement, text)
    return text.strip().strip('"')


def page(raw, title):
    """(markdown, NAME description or None) of one page's troff."""
    lines, section, description = [], None, None
    for line in raw.splitlines():
        if line.startswith(('.\\"', "'\\\"")):
            continue
        heading = HEADING.match(line)
        if heading:
            section = clean(heading.group(2)).title() or "Section"
            lines.append(("## " if heading.group(1) == "SH" else "### ") + section)
            continue
        if line.startswith((".", "'")):
            inline = INLINE.match(line)
            if not inline:
                continue
            line = " ".join(clean(a) for a in re.findall(r'"[^"]*"|\S+', inline.group(2)))
        else:
            line = clean(line)
        if not line:
            continue
        if section and section.lower() == "name" and description is None and " - " in line:
            description = line.split(" - ", 1)[1].strip()
        lines.append(line)
    parts, body = [f"# {title}"], []
    for line in lines:
        if line.startswith(("## ", "### ")):
            if body:
                parts.append(" ".join(body))
            body = []
            parts.append(line)
        else:
            body.append(line.lstrip("#").strip())
    if body:
        parts.append(" ".join(body))
    return "\n\n".join(p for p in parts if p), description


def main():
    out, questions, budget = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    files = []
    for section in ("1", "8", "5", "7", "2", "3"):
        folder = f"/usr/share/man/man{section}"
        files += sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".gz"))
    random.Random(3).shuffle(files)
    words, pages, gcloud, descriptions = 0, 0, 0, []
    for path in files:
        if words > budget:
            break
        if os.path.islink(path):
            continue
        try:
            raw = gzip.open(path).read().decode("utf-8", "replace")
        except (OSError, EOFError):
            continue
        if raw.lstrip().startswith(".so"):
            continue
        title = os.path.basename(path)[:-3]
        text, description = page(raw, title)
        count = len(text.split())
        if count < 30:
            continue
        if title.startswith("gcloud"):
            gcloud += 1
            if gcloud > 2000:
                continue
        words += count
        pages += 1
        with open(os.path.join(out, title.replace("/", "_") + ".md"), "w") as f:
            f.write(text + "\n")
        if description and len(description.split()) >= 3:
            descriptions.append(description)
    random.Random(4).shuffle(descriptions)
    with open(questions, "w") as f:
        for text in descriptions[:100]:
            f.write(json.dumps({"text": text}) + "\n")
    print(f"man pages: {pages} pages, {words} words, {len(descriptions)} descriptions", file=sys.stderr)


if __name__ == "__main__":
    main()
