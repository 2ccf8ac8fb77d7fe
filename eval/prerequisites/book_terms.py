"""Shared reading of an exported curriculum (curriculum export --format json) for the
prerequisite evaluation: topics in course order, their key terms and the text they use."""
import json
import re

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


def stem(word):
    """TermMatcher.stem: plurals, -ing and -ed stripped (Sources/Lectern/Curriculum/Content/TermMatcher.swift)."""
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    for suffix in ("sses", "shes", "ches", "xes", "zes"):
        if w.endswith(suffix):
            return w[:-2]
    if w.endswith(("ss", "us", "is")):
        return w
    if w.endswith("s"):
        return w[:-1]
    if w.endswith("ing") and len(w) > 5:
        return w[:-3]
    if w.endswith("ed") and len(w) > 4:
        return w[:-2]
    return w


def stems(text):
    return [stem(w) for w in _WORD.findall(text)]


def count(term, words):
    n, i = 0, 0
    while i <= len(words) - len(term):
        if words[i:i + len(term)] == term:
            n += 1
            i += len(term)
        else:
            i += 1
    return n


def topics(path):
    curriculum = json.load(open(path))["curriculum"]
    out = []
    for unit in curriculum["units"]:
        for topic in unit["topics"]:
            text = "\n".join(p["text"] for p in topic["passages"] if p["kind"] != "glossary")
            out.append({
                "id": topic["stableId"], "title": topic["title"], "unit": unit["title"],
                "terms": topic["keyTerms"], "text": text, "words": stems(text),
                "links": topic.get("prerequisites", []),
            })
    return out
