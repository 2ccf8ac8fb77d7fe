#!/usr/bin/env python3
"""Precision and recall of curricula's "builds on" links against the hand-labelled sets.

    python3 eval/prerequisites/precision.py book.json
    python3 eval/prerequisites/precision.py book=book.json mechanics=mech.json corpora=corpora.json

Each argument is `lectern curriculum export NAME --format json` of one labelled curriculum, as
NAME=PATH (a bare path is the book): its labels are eval/prerequisites/NAME-labels.jsonl. A
labelled candidate (topic, prerequisite, term) counts as predicted when the topic links to that
prerequisite (under any term or reference: a link is judged as "topic needs prerequisite").
Precision is over the predicted labelled candidates, recall over the labelled positives; both
per split (dev: the rules were tuned on it; test: report this one), per curriculum and pooled
("all curricula"), and per reason of the link (term, reference). Also prints how many links each
curriculum has, how many point forward in course order (must be 0), and how many no label covers.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from book_terms import topics  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def judged(path, labels_path):
    """The labelled pairs of one curriculum, with the link each has (or None) and its split."""
    ts = topics(path)
    position = {t["id"]: i for i, t in enumerate(ts)}
    title = {t["id"]: t["title"] for t in ts}
    links = {}
    for t in ts:
        for link in t["links"]:
            links.setdefault((t["title"], title[link["topicStableId"]]), link.get("reason", "term"))
    forward = sum(1 for t in ts for link in t["links"] if position[link["topicStableId"]] >= position[t["id"]])
    labels = [json.loads(line) for line in open(labels_path, encoding="utf-8")]
    known = {t["title"] for t in ts}
    missing = {x["topic"] for x in labels if x["topic"] not in known} | {x["prerequisite"] for x in labels if x["prerequisite"] not in known}
    if missing:
        # A labelled page the build no longer makes a topic (an OCW "Lesson 33" stub) links nothing.
        print(f"note: {len(missing)} labelled titles are not topics of {path} (counted as unlinked): "
              + "; ".join(sorted(missing)[:3]))
    labelled_pairs = {(x["topic"], x["prerequisite"]) for x in labels}
    rows = {}
    for split in ("dev", "test", "all"):
        pairs = {}
        for x in labels:
            if split != "all" and x["split"] != split:
                continue
            key = (x["topic"], x["prerequisite"])
            # A pair is needed when any of its labelled terms says so.
            pairs[key] = max(pairs.get(key, 0), x["needed"])
        rows[split] = [(needed, links.get(key)) for key, needed in pairs.items()]
    unlabelled = sum(1 for k in links if k not in labelled_pairs)
    return rows, len(links), forward, unlabelled


def line(name, split, rows):
    predicted = [needed for needed, link in rows if link]
    right = sum(predicted)
    positives = sum(needed for needed, _ in rows)
    precision = right / len(predicted) if predicted else float("nan")
    recall = right / positives if positives else float("nan")
    reasons = {}
    for needed, link in rows:
        if link:
            r = reasons.setdefault(link, [0, 0])
            r[0] += needed
            r[1] += 1
    by = "  ".join(f"{reason} {r[0]}/{r[1]}" for reason, r in sorted(reasons.items()))
    print(f"{name:10} {split:5} pairs {len(rows):3}  needed {positives:3}  linked {len(predicted):3}  right {right:3}  "
          f"precision {precision:.2f}  recall {recall:.2f}  {by}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("curricula", nargs="+", help="NAME=EXPORT.json (a bare path: book)")
    parser.add_argument("--labels", help="the labels of a single curriculum (default eval/prerequisites/NAME-labels.jsonl)")
    args = parser.parse_args()
    pooled = {"dev": [], "test": [], "all": []}
    for argument in args.curricula:
        name, _, path = argument.rpartition("=")
        name = name or "book"
        labels = args.labels if args.labels and len(args.curricula) == 1 else os.path.join(HERE, f"{name}-labels.jsonl")
        rows, links, forward, unlabelled = judged(path, labels)
        for split in ("dev", "test", "all"):
            line(name, split, rows[split])
            pooled[split] += rows[split]
        print(f"{name:10} links {links}  forward {forward}  not labelled {unlabelled}")
    if len(args.curricula) > 1:
        for split in ("dev", "test", "all"):
            line("all", split, pooled[split])


if __name__ == "__main__":
    main()
