#!/usr/bin/env python3
"""Candidate "builds on" links to label, drawn from a curriculum export (before any tuning).

    python3 eval/prerequisites/candidates.py mech.json --links 30 --defined 40 --seed 31 > to-label.jsonl

Draws, in this order, each (topic, prerequisite, term) once:
- `--links` of the curriculum's own links (term and reference links alike), at random;
- `--defined` pairs where an earlier topic defines a term (its basis `glossary` or `defined`) that
  the topic's text uses at least once, at random (the pool the rules choose from).
Each line holds what a labeller reads: the term's definition in the prerequisite, the sentences
of the topic that use it (at most 3) and the reason the curriculum gives; the labels file keeps
only the key (titles and term), `needed` and `split`.
"""
import argparse
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from book_terms import count, stems, topics  # noqa: E402


def sentences(text):
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("curriculum")
    parser.add_argument("--links", type=int, default=30)
    parser.add_argument("--defined", type=int, default=40)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ts = topics(args.curriculum)
    title = {t["id"]: t["title"] for t in ts}
    index = {t["id"]: i for i, t in enumerate(ts)}
    seen = set()
    out = []

    def add(i, j, term, definition, reason):
        key = (ts[i]["title"], ts[j]["title"], term)
        if key in seen:
            return
        seen.add(key)
        term_stems = stems(term)
        uses = [s for s in sentences(ts[i]["text"]) if count(term_stems, stems(s)) > 0][:3]
        out.append({"topic": ts[i]["title"], "prerequisite": ts[j]["title"], "term": term, "reason": reason,
                    "definition": definition, "uses": uses})

    links = [(index[t["id"]], index[link["topicStableId"]], link["term"], link.get("reason", "term")) for t in ts for link in t["links"]]
    rng.shuffle(links)
    for i, j, term, reason in links[:args.links]:
        definition = next((k["definition"] for k in ts[j]["terms"] if k["term"] == term), "")
        add(i, j, term, definition, reason)
    pool = []
    for j, earlier in enumerate(ts):
        for k in earlier["terms"]:
            if k.get("basis", "defined") not in ("glossary", "defined"):
                continue
            term_stems = stems(k["term"])
            if not term_stems:
                continue
            for i in range(j + 1, len(ts)):
                if count(term_stems, ts[i]["words"]) > 0:
                    pool.append((i, j, k["term"], k["definition"]))
    rng.shuffle(pool)
    drawn = 0
    for i, j, term, definition in pool:
        if drawn >= args.defined:
            break
        before = len(out)
        add(i, j, term, definition, "candidate")
        drawn += len(out) - before
    for row in out:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
