#!/usr/bin/env python3
"""Merge grades files into the graded fixture that CardFixtureChecksTests reads.

    python3 eval/cards/fixture.py --grades eval/cards/grades-6262.jsonl eval/cards/grades-5151.jsonl \\
        --corpora Tests/Fixtures/card-grades/corpora.jsonl \\
        --shared-out Tests/Fixtures/card-grades/graded-shared.jsonl \\
        phil.db … geo.db q0/phil.db … q0/geo.db > Tests/Fixtures/card-grades/graded.jsonl

The libraries are the graded decks and copies generated with `cards generate --min-quality 0`,
so the cards the checks reject are stored too and a grade can find its card's text. Each line carries what the checks
read: the card (type, origin, front, back), the passage it cites (text, kind, section path) and
the topic's key terms that the card names (term, meaning, basis), so the test needs no library
and no ../shared. That is for the cards of corpora/ (the project's own documents) only: a card
from ../shared/corpus goes to --shared-out with what identifies it and no text at all (the shared
corpus's README asks that its files stay out of the project): the document, section path and a
hash of the passage text, a hash of the card's front and back, its guid, type, origin and kind,
and the grade; CardFixtureChecksTests makes those cards again from ../shared when it is there.
Reasons quoting the text are cut to a few words. A grade whose card the generator no longer
makes is left out (counted on stderr).
"""
import argparse, hashlib, json, re, sqlite3, sys


def short_hash(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def normalised(text):
    return " ".join(text.lower().split())


SHARED_FIELDS = ["curriculum", "guid", "document", "section", "kind", "passage", "card", "type", "origin", "grade", "reason", "caught", "graded"]


def trimmed_quotes(reason, words=6):
    """A grader's reason may quote the card or its passage: a quote of more than a few words is cut."""
    def cut(match):
        quoted = match.group(2).split()
        if len(quoted) <= 8:
            return match.group(0)
        return match.group(1) + " ".join(quoted[:words]) + " …" + match.group(3)
    return re.sub(r"([\"'‘“])([^\"'’”]{30,})([\"'’”])", cut, reason)


def identified(row):
    """A shared corpus card as the fixture keeps it: what finds it again, its grade, no text."""
    row = dict(row, card=short_hash(row["front"] + "\x1f" + row["back"]), reason=trimmed_quotes(row["reason"]))
    return {field: row[field] for field in SHARED_FIELDS}


def named_terms(text, topic_terms, glossary):
    text = normalised(text)
    named, seen = [], set()
    for term in topic_terms + glossary:
        key = normalised(term["term"])
        if key and key not in seen and key in text:
            seen.add(key)
            named.append(term)
    return named


def load(paths):
    by_key, by_front, passages = {}, {}, {}
    for path in paths:
        db = sqlite3.connect(path)
        terms = {}
        for (topic, term, definition, basis) in db.execute("""select t.stable_id, k.term, k.definition, coalesce(k.basis, 'defined')
                from topic_key_terms k join topics t on t.id = k.topic_id order by t.id, k.position"""):
            terms.setdefault(topic, []).append({"term": term, "definition": definition, "basis": basis})
        glossary = [term for topic in terms.values() for term in topic if term["basis"] == "glossary"]
        for (curriculum, topic, text, section, uri, kind) in db.execute(
                """select cu.name, t.stable_id, p.text, p.section_path, d.uri, p.kind from topic_passages tp join topics t on t.id = tp.topic_id
                   join curricula cu on cu.id = t.curriculum_id join passages p on p.id = tp.passage_id join documents d on d.id = p.document_id"""):
            passages[("/".join(uri.split("/")[-2:]), tuple(json.loads(section)), short_hash(text))] = (curriculum, text, kind, terms.get(topic, []), glossary)
        for (guid, curriculum, topic, note_type, origin, front, back, text, section, uri, kind) in db.execute(
                """select c.guid, c.curriculum, c.topic_stable_id, c.note_type, c.origin, c.front, c.back, p.text, p.section_path, d.uri, p.kind
                   from cards c join passages p on p.id = c.passage_id join documents d on d.id = p.document_id"""):
            named = named_terms(front + " " + back, terms.get(topic, []), glossary)
            row = {
                "curriculum": curriculum, "guid": guid, "document": "/".join(uri.split("/")[-2:]),
                "section": json.loads(section), "kind": kind, "passage": short_hash(text), "text": text,
                "type": note_type, "origin": origin, "front": front, "back": back, "terms": named,
            }
            by_key[(row["document"], tuple(row["section"]), row["passage"], short_hash(front + "\x1f" + back))] = row
            by_front[(row["document"], tuple(row["section"]), row["passage"], normalised(front))] = row
    return by_key, by_front, passages


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--grades", nargs="+", default=[])
    parser.add_argument("--corpora", help="the older corpora/ fixture (front text, criteria, note)")
    parser.add_argument("--shared-out", required=True, help="where the shared corpus's cards go, by identifiers only")
    parser.add_argument("libraries", nargs="+")
    args = parser.parse_args()
    by_key, by_front, passages = load(args.libraries)
    out, seen, missing = [], set(), 0
    for path in args.grades:
        for grade in map(json.loads, open(path, encoding="utf-8")):
            row = by_key.get((grade["document"], tuple(grade["section"]), grade["passage"], grade["card"]))
            if row is None:
                missing += 1
                continue
            if row["guid"] + row["front"] in seen:
                continue
            seen.add(row["guid"] + row["front"])
            out.append(dict(row, grade=grade["grade"], reason=grade.get("reason", ""), caught=grade.get("caught"), graded=path.split("/")[-1]))
    if args.corpora:
        for grade in map(json.loads, open(args.corpora, encoding="utf-8")):
            row = by_front.get((grade["document"], tuple(grade["section"]), grade["passage"], normalised(grade["front"])))
            # A candidate the generator no longer makes: its text is in the grade, its passage in the library.
            found = passages.get((grade["document"], tuple(grade["section"]), grade["passage"]))
            if row is None and found is not None:
                curriculum, text, kind, topic_terms, glossary = found
                row = {"curriculum": curriculum, "guid": "", "document": grade["document"], "section": grade["section"], "kind": kind,
                       "passage": grade["passage"], "text": text, "type": grade["type"], "origin": grade["origin"], "front": grade["front"],
                       "back": grade.get("back", ""), "terms": named_terms(grade["front"] + " " + grade.get("back", ""), topic_terms, glossary)}
            if row is None:
                missing += 1
                continue
            if row["guid"] + row["front"] in seen:
                continue
            seen.add(row["guid"] + row["front"])
            reason = "; ".join(filter(None, [", ".join(grade.get("criteria", [])), grade.get("note")]))
            out.append(dict(row, grade=grade["grade"], reason=reason, caught=None, graded="corpora.jsonl"))
    own = [row for row in out if row["curriculum"] == "corpora"]
    for row in own:
        print(json.dumps(row, ensure_ascii=False))
    with open(args.shared_out, "w", encoding="utf-8") as shared:
        for row in out:
            if row["curriculum"] != "corpora":
                shared.write(json.dumps(identified(row), ensure_ascii=False) + "\n")
    print(f"{len(own)} graded cards of corpora/ written, {len(out) - len(own)} of the shared corpus by identifiers; "
          f"{missing} grades whose card is no longer made", file=sys.stderr)


if __name__ == "__main__":
    main()
