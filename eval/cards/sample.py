#!/usr/bin/env python3
"""Draw a seeded random sample of stored cards and, given grades, report % good.

    python3 eval/cards/sample.py --seed 6262 phil.db:44 mech.db:18 corp.db:10 hf.db:6 slides.db:1 geo.db:1 > sample.jsonl
    python3 eval/cards/sample.py --seed 6262 --grades eval/cards/grades-6262.jsonl phil.db:44 mech.db:18 ...

Each card is keyed by its passage's document (the last two parts of its URI), section path and
the SHA-256 of the passage text (first 16 hex digits), and by the SHA-256 of its front and back,
so a grade survives re-ingest and a library built elsewhere; the corpus text itself (passages,
fronts, backs) stays out of the grades file: grade from the sample's output.

The draw is by card GUID, not by row position: each library's cards are ordered by the SHA-256
of "SEED:GUID" and the first COUNT taken, so a card keeps its place in the draw when the deck is
regenerated and other cards come or go. (Seeds 3001–5151 were drawn with `random.sample` over
rows in id order; their grades still match by key.)
"""
import argparse, hashlib, json, sqlite3, sys
from collections import defaultdict


def rank(seed, guid):
    return hashlib.sha256(f"{seed}:{guid}".encode()).hexdigest()


def draw(seed, specs):
    rows = []
    for spec in specs:
        path, count = spec.rsplit(":", 1)
        db = sqlite3.connect(path)
        cards = db.execute("""select c.guid, c.curriculum, c.note_type, c.origin, c.front, c.back, p.text, p.section_path, d.uri, p.kind
            from cards c join passages p on p.id = c.passage_id join documents d on d.id = p.document_id""").fetchall()
        cards.sort(key=lambda card: rank(seed, card[0]))
        for (guid, curriculum, note_type, origin, front, back, text, section, uri, kind) in cards[:int(count)]:
            rows.append({
                "curriculum": curriculum, "guid": guid, "type": note_type, "origin": origin,
                "document": "/".join(uri.split("/")[-2:]), "section": json.loads(section), "kind": kind,
                "passage": hashlib.sha256(text.encode()).hexdigest()[:16],
                "card": hashlib.sha256((front + "\x1f" + back).encode()).hexdigest()[:16],
                "front": front, "back": back, "text": text,
            })
    return rows


def key(row):
    return (row["document"], tuple(row["section"]), row["passage"], row["card"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--grades", help="JSONL of graded cards (grade: good, bad or false)")
    parser.add_argument("libraries", nargs="+", help="path.db:count")
    args = parser.parse_args()
    rows = draw(args.seed, args.libraries)
    if not args.grades:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return
    grades = {key(g): g for g in map(json.loads, open(args.grades, encoding="utf-8"))}
    totals = defaultdict(lambda: [0, 0, 0])  # good, graded, false
    ungraded = 0
    for row in rows:
        grade = grades.get(key(row))
        if grade is None:
            ungraded += 1
            continue
        for label in ("all", "curriculum " + row["curriculum"], "origin " + row["origin"], "passage kind " + row["kind"]):
            totals[label][1] += 1
            totals[label][0] += grade["grade"] == "good"
            totals[label][2] += grade["grade"] == "false"
    for label in sorted(totals, key=lambda l: (l != "all", l)):
        good, graded, false = totals[label]
        print(f"{label:28} {good:3}/{graded:<3} good ({100 * good / graded:3.0f}%), {false} false")
    if ungraded:
        print(f"{ungraded} cards of the sample have no grade (regenerated since grading?)", file=sys.stderr)


if __name__ == "__main__":
    main()
