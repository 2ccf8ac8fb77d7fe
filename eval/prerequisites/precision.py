#!/usr/bin/env python3
"""Precision and recall of a curriculum's "builds on" links against the hand-labelled set.

    python3 eval/prerequisites/precision.py BOOK.json [--labels eval/prerequisites/book-labels.jsonl]

BOOK.json is `lectern curriculum export NAME --format json` of the OpenStax philosophy book.
A labelled candidate (topic, prerequisite, term) counts as predicted when the topic links to
that prerequisite (under any term: a link is judged as "topic needs prerequisite"). Precision
is over the predicted labelled candidates, recall over the labelled positives; both per split
(dev: the thresholds were tuned on it; test: report this one). Also prints how many links the
curriculum has, how many point forward in course order (must be 0), and how many no label covers.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from book_terms import topics  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("curriculum")
    parser.add_argument("--labels", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "book-labels.jsonl"))
    args = parser.parse_args()
    ts = topics(args.curriculum)
    position = {t["id"]: i for i, t in enumerate(ts)}
    title = {t["id"]: t["title"] for t in ts}
    links = {(t["title"], title[link["topicStableId"]]) for t in ts for link in t["links"]}
    forward = sum(1 for t in ts for link in t["links"] if position[link["topicStableId"]] >= position[t["id"]])
    labels = [json.loads(line) for line in open(args.labels, encoding="utf-8")]
    known = {t["title"] for t in ts}
    missing = {x["topic"] for x in labels if x["topic"] not in known} | {x["prerequisite"] for x in labels if x["prerequisite"] not in known}
    if missing:
        sys.exit(f"precision.py: {len(missing)} labelled titles are not topics of {args.curriculum}, e.g. {sorted(missing)[0]!r}")
    labelled_pairs = {(x["topic"], x["prerequisite"]) for x in labels}
    for split in ("dev", "test", "all"):
        rows = [x for x in labels if split == "all" or x["split"] == split]
        # A pair is needed when any of its labelled terms says so.
        pairs = {}
        for x in rows:
            key = (x["topic"], x["prerequisite"])
            pairs[key] = max(pairs.get(key, 0), x["needed"])
        predicted = [k for k in pairs if k in links]
        right = sum(pairs[k] for k in predicted)
        positives = sum(pairs.values())
        precision = right / len(predicted) if predicted else float("nan")
        recall = right / positives if positives else float("nan")
        print(f"{split:5} pairs {len(pairs):3}  needed {positives:3}  linked {len(predicted):3}  right {right:3}  "
              f"precision {precision:.2f}  recall {recall:.2f}")
    unlabelled = sum(1 for k in links if k not in labelled_pairs)
    print(f"links {len(links)}  forward {forward}  not labelled {unlabelled}")


if __name__ == "__main__":
    main()
