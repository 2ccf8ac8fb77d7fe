"""Real passages from the shared corpus (../shared/corpus), for the MiniLM fixtures and bench.

Standard library only (plus `pdftotext` from poppler-utils when present), deterministic:
the same corpus always gives the same passages in the same order.

    paragraphs(corpus)      -> [(source, text)]   one paragraph, list item, cue run or PDF block each
    windows(corpus, words)  -> [(source, text)]   running text cut into ~`words`-word passages
"""
import glob
import html
import html.parser
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

SPACES = re.compile(r"\s+")


def squash(text):
    return SPACES.sub(" ", text).strip()


class _BlockText(html.parser.HTMLParser):
    """Text of each <p>, <li>, <h1-4>, <td> and <dd> in an HTML fragment."""

    BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "td", "dd", "blockquote"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.current = []
        self.blocks = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in self.BLOCKS:
            if self.depth and self.current:
                self.blocks.append("".join(self.current))
                self.current = []
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS and self.depth:
            self.depth -= 1
            self.blocks.append("".join(self.current))
            self.current = []

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.current.append(data)


def html_blocks(markup):
    parser = _BlockText()
    parser.feed(markup)
    parser.close()
    return [b for b in (squash(x) for x in parser.blocks) if b]


def _local(tag):
    return tag.rsplit("}", 1)[-1]


def openstax(corpus):
    out = []
    for path in sorted(glob.glob(os.path.join(corpus, "openstax/*/modules/*/index.cnxml"))):
        module = path.split(os.sep)[-2]
        root = ET.parse(path).getroot()
        for element in root.iter():
            tag = _local(element.tag)
            if tag in ("para", "item", "meaning", "title", "caption"):
                text = squash("".join(element.itertext()))
                if text:
                    out.append(("openstax/" + module, text))
    return out


def wikipedia(corpus):
    out = []
    for path in sorted(glob.glob(os.path.join(corpus, "wikipedia/*/expected.html"))):
        name = path.split(os.sep)[-2]
        with open(path, encoding="utf-8") as f:
            out += [("wikipedia/" + name, b) for b in html_blocks(f.read())]
    return out


def srt_cues(path):
    with open(path, encoding="utf-8-sig") as f:
        text = f.read()
    cues = []
    for block in re.split(r"\n\s*\n", text):
        lines = [l for l in block.strip().splitlines() if l.strip()]
        lines = [l for l in lines if not re.fullmatch(r"\d+", l.strip()) and "-->" not in l]
        if lines:
            cues.append(squash(" ".join(lines)))
    return cues


def transcripts(corpus, words=60):
    out = []
    for path in sorted(glob.glob(os.path.join(corpus, "transcripts/*.srt"))):
        name = os.path.basename(path)
        out += [("transcripts/" + name, t) for t in _cut(" ".join(srt_cues(path)), words)]
    return out


def ocw(corpus, transcript_words=80):
    out = []
    for path in sorted(glob.glob(os.path.join(corpus, "ocw/*.json"))):
        course = os.path.basename(path).split("_")[0]
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for page in data.get("course_pages", []):
            out += [("ocw/" + course, b) for b in html_blocks(page.get("text") or "")]
        media = data.get("course_embedded_media", {})
        for key in sorted(media):
            transcript = media[key].get("transcript") or ""
            text = squash(html.unescape(re.sub(r"<[^>]+>", " ", transcript)))
            out += [("ocw/" + course + "/transcript", t) for t in _cut(text, transcript_words)]
    return out


def pdfs(corpus):
    out = []
    for path in sorted(glob.glob(os.path.join(corpus, "pdf/*.pdf"))):
        try:
            text = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True,
                                  timeout=60).stdout.decode("utf-8", "replace")
        except (OSError, subprocess.TimeoutExpired):
            continue
        name = os.path.basename(path)
        for block in re.split(r"\n\s*\n", text):
            block = squash(block.replace("\f", " "))
            if len(block) >= 20:
                out.append(("pdf/" + name, block))
    return out


def _cut(text, words):
    tokens = text.split()
    return [" ".join(tokens[i:i + words]) for i in range(0, len(tokens), words) if tokens[i:i + words]]


def paragraphs(corpus):
    """Every paragraph-like unit of every source kind, de-duplicated, in a fixed order."""
    seen = set()
    out = []
    for source, text in openstax(corpus) + wikipedia(corpus) + transcripts(corpus) + ocw(corpus) + pdfs(corpus):
        if text not in seen:
            seen.add(text)
            out.append((source, text))
    return out


def interleave(items, count):
    """`count` items spread evenly over `items` (keeps every source kind represented)."""
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def windows(corpus, words=200):
    """Running text of each source cut into passages of about `words` words."""
    streams = {}
    for source, text in paragraphs(corpus):
        streams.setdefault(source.split("/")[0] + "/" + source.split("/")[1], []).append(text)
    out = []
    for source in sorted(streams):
        out += [(source, t) for t in _cut(" ".join(streams[source]), words) if len(t.split()) >= words // 2]
    return out


if __name__ == "__main__":
    import argparse
    import sys
    parser = argparse.ArgumentParser(description="Print real corpus passages, one a line, or a summary.")
    parser.add_argument("corpus", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/corpus"))
    parser.add_argument("--windows", type=int, help="print this many ~200-word passages, one a line")
    args = parser.parse_args()
    if args.windows:
        for _, text in interleave(windows(args.corpus), args.windows):
            sys.stdout.write(text + "\n")
    else:
        p = paragraphs(args.corpus)
        kinds = {}
        for s, _ in p:
            kinds[s.split("/")[0]] = kinds.get(s.split("/")[0], 0) + 1
        print(len(p), "paragraphs", kinds, len(windows(args.corpus)), "windows of 200 words")
