#!/usr/bin/env python3
"""Topic coverage of the stored decks: which topics with explanatory text have a card.

    python3 eval/cards/coverage.py phil.db:philosophy mech.db:mechanics corp.db:corpora hf.db:hf geo.db:geotopo
    python3 eval/cards/coverage.py --uncovered mech.db:mechanics      # the topics without a card, with their words
    python3 eval/cards/coverage.py --json … > before.json; … --compare before.json …

A topic counts when its prose (passages of kind text, list and transcript, as
`CardGeneration.proseWords` counts them) holds at least 150 words. Of those, a topic is an
EXERCISE topic when it is practice rather than exposition: its title names a problem set, a
worked example, a problem, a demo or review questions ("PS.1.2 …", "Problem Set 3",
"12.1 Pulley Problems - Part I", "27.1 Worked Example: …", "11.3 Demo: …", "Übungsaufgaben"), or every prose
passage sits in an exercise section (the sections `PassageReading.exerciseSections` names).
Such a topic may legitimately have no card: what it says is a problem's particulars. The
target (issue #30: ≥ 90% of topics with explanatory text have a card) is read on the other,
EXPOSITION topics; both counts are printed.

EXPLANATORY text (the issue's measure: "topics with at least ~150 words of explanatory text")
is the prose less what explains nothing about the subject, by a written rule (eval/cards/README.md,
"Is the measure right?"): a credit line ("Instructor: Dr. …"), a list that is the course's own
outline (most of its lines a numbered section title or "Lesson 4: …"), a sentence of greeting or
logistics ("Good morning", "This week we will …", "For next week, read …", problem sets, exams),
and a question. A topic whose title names a problem to solve ("7.3 Solving Pulley Systems",
"18.3 Solve for Velocity …", "Set up …") is an exercise like a worked example. Both counts are
printed: the prose one (as before) and the explanatory one, the target's.

Also printed: cards by origin, and for GeoTopo-like notes the numbered definitions
("Definition N.N") that have a card of their own.
"""
import argparse, json, re, sqlite3, sys
from collections import Counter

PROSE = ("text", "list", "transcript")
WORDS = 150
EXERCISE_TITLE = re.compile(
    r"^(?:PS\.\d|Problem Set\b)|\bWorked Example\b|\bProblems?\b(?: \d| -|:|$)|\bDemo\b|\bReview questions?\b|\bPractice problems?\b"
    r"|\bExercises?\b|\bCheck your understanding\b|\bÜbung|\bAufgaben?\b|\bExercices?\b|\bEjercicios?\b", re.IGNORECASE)
# A title naming a problem to solve: "7.3 Solving Pulley Systems", "18.3 Solve for Velocity in the Ground Frame".
TASK_TITLE = re.compile(r"^(?:[A-Z]{1,3}\.)?[\d.]*\s*(?:Solv(?:e|ing)|Set(?:ting)? [Uu]p)\b")
EXERCISE_SECTIONS = ["review question", "exercise", "problem", "practice", "critical thinking", "think like a philosopher",
                     "write like a philosopher", "check your understanding", "self-check", "quiz", "homework", "assignment",
                     "übung", "aufgabe", "exercice", "ejercicio"]
WORD = re.compile(r"\w+")
# What explains nothing about the subject (the rule in eval/cards/README.md, "Is the measure right?").
CREDIT = re.compile(r"^\s*(?:(?:Instructor|Lecturer|Professor|Speaker|Narrator|Host|Presenter|Interviewer|Guest)s?\s*:.*|\[[A-Z ]+\])\s*$", re.M)
OUTLINE_LINE = re.compile(r"^\s*(?:(?:[A-Z]{1,3}\.)?\d+(?:\.\d+)*\.?\s|(?:Lesson|Week|Unit|Module|Chapter|Lecture|Part|Deep Dive|Problem Set|Kapitel|Section)\b)")
LOGISTICS = re.compile(
    r"\b(?:hello|hi everyone|welcome|good (?:morning|afternoon|evening)|thank you|thanks for|see you|(?:this|last|next) (?:week|lecture|lesson|time|video)"
    r"|in (?:this|today's|the next|the last) (?:lesson|lecture|video|module|course|section|chapter|unit|week)|today,? we|problem sets?|homework|exams?"
    r"|quiz(?:zes)?|office hours|subscribe)\b", re.IGNORECASE)
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")


def explanatory_words(kind, text):
    """The words of a prose passage that explain: no credit line, course outline, greeting, logistics or question."""
    if kind == "list":
        lines = [line for line in text.split("\n") if line.strip()]
        outline = sum(1 for line in lines if OUTLINE_LINE.match(line) and len(WORD.findall(line)) <= 12)
        if lines and 2 * outline >= len(lines):
            return 0
    count = 0
    for sentence in SENTENCE_BREAK.split(CREDIT.sub("", text)):
        sentence = sentence.strip()
        if sentence and not sentence.endswith("?") and not LOGISTICS.search(sentence):
            count += len(WORD.findall(sentence))
    return count


def topics(db, curriculum):
    rows = db.execute("""select t.stable_id, t.title, p.kind, p.section_path, p.text
        from topics t join curricula cu on cu.id = t.curriculum_id
        join topic_passages tp on tp.topic_id = t.id join passages p on p.id = tp.passage_id
        where cu.name = ? order by t.id, tp.position""", (curriculum,)).fetchall()
    result = {}
    for stable_id, title, kind, section, text in rows:
        topic = result.setdefault(stable_id, {"title": title, "words": 0, "explanatory": 0, "sections": []})
        if kind in PROSE:
            topic["words"] += len(WORD.findall(text))
            topic["explanatory"] += explanatory_words(kind, text)
            path = json.loads(section)
            topic["sections"].append(path[-1].lower() if path else "")
    return result


def is_exercise(topic):
    if EXERCISE_TITLE.search(topic["title"]):
        return True
    return bool(topic["sections"]) and all(any(name in section for name in EXERCISE_SECTIONS) for section in topic["sections"])


def measure(path, curriculum):
    db = sqlite3.connect(path)
    all_topics = topics(db, curriculum)
    carded = Counter(row[0] for row in db.execute("select topic_stable_id from cards where curriculum = ?", (curriculum,)))
    origins = Counter(row[0] for row in db.execute("select origin from cards where curriculum = ?", (curriculum,)))
    eligible = {k: t for k, t in all_topics.items() if t["words"] >= WORDS}
    exposition = {k: t for k, t in eligible.items() if not is_exercise(t)}
    # The measure: ≥150 words of explanatory text, exercise topics aside.
    explained = {k: t for k, t in all_topics.items()
                 if t["explanatory"] >= WORDS and not is_exercise(t) and not TASK_TITLE.search(t["title"])}
    # Numbered definitions with a card of their own ("Definition 3.4 (…)" fronts), against those the text opens.
    fronts = [row[0] for row in db.execute("select front from cards where curriculum = ? and origin = 'environment'", (curriculum,))]
    defined = {m.group(1) for f in fronts for m in [re.match(r"^Definition (\d+)", f)] if m}
    texts = [row[0] for row in db.execute("""select distinct p.text from passages p join topic_passages tp on tp.passage_id = p.id
        join topics t on t.id = tp.topic_id join curricula cu on cu.id = t.curriculum_id where cu.name = ?""", (curriculum,))]
    # (Every "Definition N" the notes hold: GeoTopo numbers its 85 definitions 1–85; a reference
    # "vgl. Definition 1.ii" names one of them.)
    numbered = {m.group(1) for text in texts for m in re.finditer(r"\bDefinition (\d+)", text)}
    return {
        "curriculum": curriculum, "topics": len(all_topics), "cards": sum(carded.values()),
        "eligible": len(eligible), "eligible_carded": sum(1 for k in eligible if k in carded),
        "exposition": len(exposition), "exposition_carded": sum(1 for k in exposition if k in carded),
        "explanatory": len(explained), "explanatory_carded": sum(1 for k in explained if k in carded),
        "origins": dict(sorted(origins.items())),
        "numbered_definitions": len(numbered), "numbered_definitions_carded": len(defined & numbered),
        "uncovered": sorted(((t["words"], t["title"], is_exercise(t), t["explanatory"]) for k, t in eligible.items() if k not in carded), reverse=True),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("specs", nargs="+", help="DB:CURRICULUM")
    parser.add_argument("--uncovered", action="store_true", help="list the eligible topics without a card")
    parser.add_argument("--json", action="store_true", help="print the measures as JSON")
    parser.add_argument("--compare", help="a --json output of an earlier run: print before → after")
    args = parser.parse_args()
    results = [measure(*spec.rsplit(":", 1)) for spec in args.specs]
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        return
    before = {r["curriculum"]: r for r in json.load(open(args.compare))} if args.compare else {}

    def pct(a, b):
        return f"{a}/{b} ({100 * a / b:.0f}%)" if b else "0/0"

    for r in results:
        was = before.get(r["curriculum"])
        line = (f"{r['curriculum']}: topics with ≥{WORDS} words of prose that have a card {pct(r['eligible_carded'], r['eligible'])}; "
                f"exposition topics (exercise topics aside) {pct(r['exposition_carded'], r['exposition'])}; cards {r['cards']}")
        if was:
            line += (f"  [before: {pct(was['eligible_carded'], was['eligible'])}; exposition "
                     f"{pct(was['exposition_carded'], was['exposition'])}; cards {was['cards']}]")
        print(line)
        line = f"  topics with ≥{WORDS} words of explanatory text (exercise topics aside) that have a card {pct(r['explanatory_carded'], r['explanatory'])}"
        if was and "explanatory" in was:
            line += f"  [before: {pct(was['explanatory_carded'], was['explanatory'])}]"
        print(line)
        print(f"  by origin: {r['origins']}" + (f"  [before: {was['origins']}]" if was else ""))
        if r["numbered_definitions"]:
            print(f"  numbered definitions (Definition N.N) with a card: {r['numbered_definitions_carded']}/{r['numbered_definitions']}")
        if args.uncovered:
            for words, title, exercise, explanatory in r["uncovered"]:
                print(f"    {words:5d} {explanatory:5d} {'exercise ' if exercise else 'exposition'} {title}")


if __name__ == "__main__":
    main()
