#!/usr/bin/env python3
"""Draw a seeded sample of curriculum topics to grade by hand, and report the grades.

    python3 eval/curriculum/sample.py --seed 3131 book=book.json:6 mechanics=mech.json:6 ... > sample.txt
    python3 eval/curriculum/sample.py --seed 3131 --grades eval/curriculum/grades-3131.jsonl book=book.json:6 ...

Each spec is NAME=EXPORT.json:COUNT, EXPORT a `lectern curriculum export NAME --format json`.
The draw is by stable id: each curriculum's topics are ordered by the SHA-256 of
"SEED:NAME:STABLEID" and the first COUNT taken. A topic is keyed by its curriculum, its title
and the SHA-256 of its passages' text (first 16 hex digits), so the grades file holds no text of
the sources. Without --grades the sample is printed for grading: each topic's unit, title,
summary (and whose words), objectives (its own, or its unit's inherited ones, as the UMCF export
gives them), the topics it builds on with their reasons and places in course order, and the
start of its text.
"""
import argparse, hashlib, json, sys
from collections import defaultdict

INHERITED_LIMIT = 6  # InheritedObjectives.limit
TERM_USES = 2  # InheritedObjectives.termUses
DEFINED_TERM_USES = 3  # InheritedObjectives.definedTermUses
WORD_SHARE = 0.6  # InheritedObjectives.wordShare


def _stopwords():
    import os, re
    source = os.path.join(os.path.dirname(__file__), "../../Sources/Lectern/Model/ContentWords.swift")
    try:
        text = open(source, encoding="utf-8").read()
        block = text[text.index("static let stopwords"):]
        block = block[:block.index("]")]
        return set(re.findall(r'"([^"]+)"', block))
    except (OSError, ValueError):
        return set()


def stem(word):  # TermMatcher.stem
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("sses", "shes", "ches", "xes", "zes"):
        if word.endswith(suffix):
            return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("s"):
        return word[:-1]
    if word.endswith("ing") and len(word) > 5:
        return word[:-3]
    if word.endswith("ed") and len(word) > 4:
        return word[:-2]
    return word


def stems(text):  # TermMatcher.stems: letter-and-digit runs, lower case, diacritics folded
    import re, unicodedata
    words = re.findall(r"[^\W_]+", text.lower())
    return [stem("".join(c for c in unicodedata.normalize("NFD", w) if not unicodedata.combining(c))) for w in words]


def count(term, words):  # TermMatcher.count
    found, i = 0, 0
    while term and i <= len(words) - len(term):
        if words[i:i + len(term)] == term:
            found, i = found + 1, i + len(term)
        else:
            i += 1
    return found


def join_list(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def concern(objective, words):  # InheritedObjectives.concern
    parts = objective["statement"].split(" ", 1)
    if len(parts) != 2:
        return None
    verb, rest = parts
    if objective["origin"] == "offline" and verb == "Define":
        terms = [t.strip() for chunk in rest.split(", ") for t in chunk.split(" and ") if t.strip()]
        kept = [t for t in terms if count(stems(t), words) >= DEFINED_TERM_USES]
        return "Define " + join_list(kept) if kept else None
    content = {w for w in stems(rest) if w not in STOPWORDS and len(w) > 2}
    if not content:
        return None
    counts = defaultdict(int)
    for w in words:
        counts[w] += 1
    present = [w for w in content if counts.get(w)]
    share = 1.0 if objective["origin"] == "offline" else WORD_SHARE  # an offline objective needs all its words
    if len(present) < share * len(content) or not any(counts[w] >= TERM_USES for w in present):
        return None
    return objective["statement"]


def statement_key(statement):  # InheritedObjectives.key
    return " ".join(w for w in statement.lower().split(" ") if w not in ("the", "a", "an"))


def inherited_objectives(unit, topic):
    """What the UMCF export gives a topic without objectives of its own (InheritedObjectives)."""
    seen, candidates = set(), []
    for other in unit["topics"]:
        for objective in other["objectives"]:
            if statement_key(objective["statement"]) not in seen:
                seen.add(statement_key(objective["statement"]))
                candidates.append(objective)
    if not candidates:
        return []
    words = stems(text_of(topic))
    fitting, statements = [], set()
    for objective in candidates:
        statement = concern(objective, words)
        if statement and statement_key(statement) not in statements:
            statements.add(statement_key(statement))
            fitting.append(dict(objective, statement=statement, origin="inherited"))
    if fitting:
        return fitting[:INHERITED_LIMIT]
    unit_words = [stems(text_of(other)) for other in unit["topics"]]
    reach = [sum(concern(objective, w) is not None for w in unit_words) for objective in candidates]
    best = reach.index(max(reach))
    return [dict(candidates[best], origin="inherited, the unit's overall")]


def load(spec):
    name, rest = spec.split("=", 1)
    path, count_ = rest.rsplit(":", 1)
    record = json.load(open(path, encoding="utf-8"))["curriculum"]
    topics = []
    for unit in record["units"]:
        for topic in unit["topics"]:
            topics.append((unit, topic, [] if topic["objectives"] else inherited_objectives(unit, topic)))
    return name, int(count_), topics


STOPWORDS = _stopwords()  # ContentWords.stopwords, read from the Swift source


def text_of(topic):
    return "\n".join(p["text"] for p in topic["passages"])


def key(name, topic):
    return (name, topic["title"], hashlib.sha256(text_of(topic).encode()).hexdigest()[:16])


def draw(seed, specs):
    rows = []
    for spec in specs:
        name, count, topics = load(spec)
        order = {topic["stableId"]: index for index, (_, topic, _) in enumerate(topics)}
        titles = {topic["stableId"]: topic["title"] for _, topic, _ in topics}
        ranked = sorted(topics, key=lambda t: hashlib.sha256(f"{seed}:{name}:{t[1]['stableId']}".encode()).hexdigest())
        for unit, topic, inherited in ranked[:count]:
            links = [{"target": titles.get(link["topicStableId"], "?"), "term": link["term"], "reason": link.get("reason", "term"),
                      "forward": order.get(link["topicStableId"], 10**9) >= order[topic["stableId"]]}
                     for link in topic.get("prerequisites", [])]
            rows.append({"name": name, "unit": unit["title"], "topic": topic, "inherited": inherited, "links": links,
                         "position": order[topic["stableId"]] + 1, "of": len(topics)})
    return rows


def show(rows):
    for number, row in enumerate(rows, 1):
        topic = row["topic"]
        text = text_of(topic)
        print(f"=== {number}. [{row['name']}] topic {row['position']}/{row['of']} · unit: {row['unit']}")
        print(f"title: {topic['title']}   ({len(text.split())} words, {topic['studyMinutes']} min, key {key(row['name'], topic)[2]})")
        print(f"summary ({topic['summaryOrigin']}): {topic['summary']}")
        own = topic["objectives"]
        objectives = own or row["inherited"]
        print("objectives" + ("" if own else " (inherited from the unit)") + ":")
        for objective in objectives:
            print(f"  - {objective['statement']}  [{objective['origin']}]")
        for link in row["links"]:
            print(f"builds on: {link['target']}  ({link['reason']}: {link['term']}){'  FORWARD' if link['forward'] else ''}")
        print("text: " + text[:2500].replace("\n", " ¶ "))
        print()


def report(rows, grades_path):
    grades = {}
    for line in open(grades_path, encoding="utf-8"):
        grade = json.loads(line)
        grades[(grade["curriculum"], grade["title"], grade["hash"])] = grade
    totals = defaultdict(lambda: {"topics": 0, "summary": 0, "objectives": 0, "lessons": 0, "links": 0, "sensible": 0, "forward": 0})
    ungraded = 0
    for row in rows:
        grade = grades.get(key(row["name"], row["topic"]))
        if grade is None:
            ungraded += 1
            continue
        for label in ("all", row["name"]):
            t = totals[label]
            t["topics"] += 1
            t["summary"] += grade["summary"]
            t["objectives"] += grade["objectives"] == "y"
            t["lessons"] += grade["lesson"] == "y"
            for link in grade.get("links", []):
                t["links"] += 1
                t["sensible"] += link["sensible"] == "y"
                t["forward"] += link["forward"] == "y"
    for label in sorted(totals, key=lambda l: (l != "all", l)):
        t = totals[label]
        n = t["topics"]
        links = f"{t['sensible']}/{t['links']} sensible, {t['forward']} forward" if t["links"] else "no links"
        print(f"{label:10} {n:2} topics: summary {t['summary'] / n:.2f}/5, objectives real {t['objectives']}/{n} "
              f"({100 * t['objectives'] / n:.0f}%), builds on {links}, lessons {t['lessons']}/{n}")
    if ungraded:
        print(f"{ungraded} topics of the sample have no grade (rebuilt since grading?)", file=sys.stderr)


def draw_links(seed, specs):
    """Links drawn like topics (by the SHA-256 of "SEED:NAME:TOPIC>TARGET"), COUNT per curriculum."""
    rows = []
    for spec in specs:
        name, count, topics = load(spec)
        order = {topic["stableId"]: index for index, (_, topic, _) in enumerate(topics)}
        by_id = {topic["stableId"]: topic for _, topic, _ in topics}
        links = [(topic, by_id[link["topicStableId"]], link) for _, topic, _ in topics for link in topic.get("prerequisites", [])
                 if link["topicStableId"] in by_id]
        links.sort(key=lambda l: hashlib.sha256(f"{seed}:{name}:{l[0]['stableId']}>{l[1]['stableId']}".encode()).hexdigest())
        for topic, target, link in links[:count]:
            rows.append({"name": name, "topic": topic, "target": target, "link": link,
                         "forward": order[target["stableId"]] >= order[topic["stableId"]]})
    return rows


def sentences_with(text, term, limit):
    import re
    found = [s for s in re.split(r"(?<=[.!?])\s+", text.replace("\n", " ")) if term.lower() in s.lower()]
    return found[:limit]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--grades", help="JSONL of graded topics")
    parser.add_argument("--keys", action="store_true", help="print a JSONL line per drawn topic to fill in")
    parser.add_argument("--links", action="store_true", help="draw COUNT links per curriculum instead of topics")
    parser.add_argument("curricula", nargs="+", help="NAME=EXPORT.json:COUNT")
    args = parser.parse_args()
    if args.links:
        for row in draw_links(args.seed, args.curricula):
            topic, target, link = row["topic"], row["target"], row["link"]
            if args.grades or args.keys:
                print(json.dumps({"curriculum": row["name"], "topic": topic["title"], "target": target["title"], "term": link["term"],
                                  "forward": "y" if row["forward"] else "n", "sensible": None}, ensure_ascii=False))
                continue
            print(f"=== [{row['name']}] {topic['title']} → {target['title']}  ({link.get('reason', 'term')}: {link['term']})"
                  + ("  FORWARD" if row["forward"] else ""))
            for sentence in sentences_with(text_of(topic), link["term"], 3):
                print("  uses: " + sentence[:300])
            for sentence in sentences_with(text_of(target), link["term"], 2):
                print("  there: " + sentence[:300])
        return
    rows = draw(args.seed, args.curricula)
    if args.grades:
        report(rows, args.grades)
    elif args.keys:
        for row in rows:
            name, title, digest = key(row["name"], row["topic"])
            print(json.dumps({"curriculum": name, "title": title, "hash": digest, "summary": None, "objectives": None, "lesson": None,
                              "links": [{"target": l["target"], "term": l["term"], "sensible": None, "forward": "y" if l["forward"] else "n"}
                                        for l in row["links"]], "note": ""}, ensure_ascii=False))
    else:
        show(rows)


if __name__ == "__main__":
    main()
