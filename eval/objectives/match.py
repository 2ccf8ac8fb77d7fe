#!/usr/bin/env python3
"""Offline objectives against the book's own (eval/objectives/README.md).

    python3 eval/objectives/match.py BOOK.json WITHHELD.json

BOOK.json: `curriculum export --format json` of the OpenStax book (its topics carry the book's
objectives, origin source); WITHHELD.json: the same built from a copy without the objectives
(withhold.py), so the objectives there are Lectern's own. For each topic the book gives
objectives, the content words (stopwords and the leading verb dropped, light stems) of the
book's objectives are compared with Lectern's: coverage is the share of the book's objectives
that share a content word (not one of the topic's title) with one of Lectern's; precision the share of Lectern's that share a
content word with one of the book's; templates are objectives naming the topic's title or a
heading ("Explain …title…", "Summarise the main ideas of …"), counted apart from "Describe <a heading>".
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prerequisites"))
from book_terms import stems  # noqa: E402

STOP = set("""a an the and or of to in on for with by from as at into about between its their his her this that these those
is are be how what why which who whom your you it they them we our than other others some many most more such can may
each one two three four five both within without through across against among while whether not no do does also different
various key main ideas role use uses used""".split())


def words(statement):
    parts = stems(statement)[1:]  # the verb goes
    return {w for w in parts if w not in STOP and len(w) > 2}


def objectives(path, origin):
    curriculum = json.load(open(path))["curriculum"]
    out, headings = {}, {}
    for unit in curriculum["units"]:
        for topic in unit["topics"]:
            out[topic["title"]] = [o["statement"] for o in topic["objectives"] if o["origin"] in origin]
            headings[topic["title"]] = {h.lower() for p in topic["passages"] for h in p["sectionPath"]}
    return out, headings


def from_title(statement, title):
    """A template made from the title: "Explain <title>", "Summarise the main ideas of …"."""
    lower = statement.lower()
    core = re.sub(r"^(?:introduction: |\d+(?:\.\d+)* )", "", title.lower())
    return lower.startswith("summarise the main ideas") or lower.startswith("answer the question") or bool(core and core in lower)


def from_heading(statement, headings):
    """"Describe <a section heading>"."""
    rest = statement.lower().split(" ", 1)[1] if " " in statement else ""
    return any(rest == re.sub(r"^\d+(?:\.\d+)* ", "", h) for h in headings)


def main():
    book, _ = objectives(sys.argv[1], {"source"})
    ours, headings = objectives(sys.argv[2], {"offline", "model"})
    covered = total_book = right = total_ours = templates = headed = topics = empty = 0
    for title, theirs in book.items():
        if not theirs:
            continue
        topics += 1
        mine = ours.get(title, [])
        if not mine:
            empty += 1
        # Words of the topic's title match for free (any "Explain <title>" would): left out.
        free = words("x " + title)
        theirs_words = [words(s) - free for s in theirs]
        mine_words = [words(s) - free for s in mine]
        covered += sum(1 for w in theirs_words if any(w & m for m in mine_words))
        total_book += len(theirs)
        right += sum(1 for m in mine_words if any(m & w for w in theirs_words))
        total_ours += len(mine)
        templates += sum(1 for s in mine if from_title(s, title))
        headed += sum(1 for s in mine if from_heading(s, headings.get(title, set())) and not from_title(s, title))
        if "-v" in sys.argv:
            print(f"{title}\n  book: {theirs}\n  ours: {mine}")
    print(f"topics {topics} (without objectives of ours: {empty}); book objectives {total_book}, ours {total_ours}")
    print(f"coverage {covered / total_book:.2f}  precision {right / max(1, total_ours):.2f}  "
          f"from the title {templates} ({templates / max(1, total_ours):.0%})  a heading described {headed} ({headed / max(1, total_ours):.0%})")


if __name__ == "__main__":
    main()
