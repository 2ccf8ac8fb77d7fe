"""minilm-int8 against minilm (float32) on the evaluation set's real passages, without a library:
each passage and query embedded by both (`lectern embed --json`), then

- the cosine of each passage's int8 vector to its float32 vector (worst, mean, 1st percentile);
- semantic retrieval nDCG@10 per split, documents ranked by their best passage (as `lectern eval`
  and bench/eval_peers.py rank them), for float32 queries on float32 passages, int8 on int8, and
  the two mixed (what a library of one precision searched with the other would give).

    python3 bench/int8_quality.py PASSAGES.jsonl DATASET LECTERN [--shared ../shared/corpus] [--out RESULT.json]

With --shared, also a PAIRED comparison on a larger query set that the sources' own structure
answers (no query written for it), int8 against float32 on the same queries: the mean of each
query's nDCG@10 difference with a bootstrap 95% interval (10,000 resamples of the queries). The
eval set's 43 queries a split cannot resolve the 0.005 bound: a mean cosine of 0.9996 to float32
moved its test split by -0.0154 (docs/benchmarks.md). The set, built from ../shared each run:

- OpenStax glossary: each glossary entry (term, meaning) of a module whose term the module's text
  also marks as a <term> in a top-level section; the answer is that section (or those sections).
  Two queries an entry: the term ("Experimental philosophy") and its meaning ("philosophy that
  uses methods from experimental science to test claims ..."), as a learner looks a word up or
  describes it. The module's glossary itself lies in its #intro unit, which is not judged.
- Wikipedia: each h2/h3 section's heading with its page's title ("Mozilla Bugzilla"), the
  answer that section (the lead excepted).
- OpenStax headings, sub-headings, objectives and summaries (openstax_headings_and_objectives);
  lecture and OCW page titles (lecture_titles). 1,633 queries in all on ../shared as it is.

The row "all, with the eval set" pools those with the eval set's 86 queries (both splits).

PASSAGES.jsonl is `lectern eval DATASET --dump-passages` ({corpus_id, passage, section, text} a
line; bench/eval_shared.sh writes bench/work/eval/passages.jsonl), DATASET the BEIR folder it
made (queries.jsonl, qrels/SPLIT.tsv). nDCG@10 with linear gain, as trec_eval's ndcg_cut.10.
Needs numpy (bench/.venv-st/bin/python has it).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
BOOTSTRAP = 10000

DOCUMENT_DEPTH = 100


def embed(lectern, embedder, texts, env):
    # One text a line: line breaks inside a passage become spaces (MiniLM's tokenizer splits on both).
    lines = "\n".join(text.replace("\n", " ").replace("\r", " ") for text in texts) + "\n"
    run = subprocess.run([lectern, "embed", "--embedder", embedder, "--json"], input=lines, capture_output=True,
                         text=True, check=True, env=env)
    report = json.loads(run.stdout)
    return np.asarray(report["vectors"], dtype=np.float32), report["cpu_seconds"]


def ranking(query, passages, corpus_ids):
    """Corpus ids by their best passage's cosine, best first, DOCUMENT_DEPTH at most."""
    scored = np.argsort(-(passages @ query), kind="stable")
    seen, out = set(), []
    for i in scored:
        if corpus_ids[i] not in seen:
            seen.add(corpus_ids[i])
            out.append(corpus_ids[i])
            if len(out) == DOCUMENT_DEPTH:
                break
    return out


def ndcg10(ranked, judged):
    dcg = sum(judged.get(doc, 0) / math.log2(rank + 2) for rank, doc in enumerate(ranked[:10]))
    ideal = sorted(judged.values(), reverse=True)[:10]
    idcg = sum(gain / math.log2(rank + 2) for rank, gain in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def ground_truth_queries(shared, unit_ids):
    """(kind, text, {unit: 1}) for each query the sources' own structure answers (see above)."""
    import glob
    import xml.etree.ElementTree as ET
    from eval_corpus import _local, wikipedia
    from corpus_passages import squash
    queries = []
    for path in sorted(glob.glob(os.path.join(shared, "openstax/*/modules/*/index.cnxml"))):
        module = path.split(os.sep)[-2]
        root = ET.parse(path).getroot()
        content = next((e for e in root if _local(e.tag) == "content"), None)
        if content is None:
            continue
        introduced = {}
        for child in content:
            if _local(child.tag) != "section" or "learning-objectives" in (child.get("class") or ""):
                continue
            unit = "openstax/%s#%s" % (module, child.get("id"))
            for node in child.iter():
                if _local(node.tag) == "term":
                    introduced.setdefault(squash("".join(node.itertext())).lower(), set()).add(unit)
        for node in root.iter():
            if _local(node.tag) != "definition":
                continue
            term = next((e for e in node if _local(e.tag) == "term"), None)
            meaning = next((e for e in node if _local(e.tag) == "meaning"), None)
            if term is None or meaning is None:
                continue
            term, meaning = squash("".join(term.itertext())), squash("".join(meaning.itertext()))
            units = sorted(introduced.get(term.lower(), set()) & unit_ids)
            if term and meaning and units:
                queries.append(("openstax term", term, {unit: 1 for unit in units}))
                queries.append(("openstax meaning", meaning, {unit: 1 for unit in units}))
    for unit, title, _ in wikipedia(shared):
        if not unit.endswith("#lead") and unit in unit_ids:
            queries.append(("wikipedia heading", title.replace(": ", " "), {unit: 1}))
    queries += openstax_headings_and_objectives(shared, unit_ids)
    queries += lecture_titles(shared, unit_ids)
    return queries


NUMBERING = re.compile(r"^(?:(?:lecture|lesson|week|unit|part)\s+|[A-Z]{1,3}\.)?\d+(?:\.\d+)*[a-z]?[.:)]?\s+", re.I)
# Furniture: a title that names no subject (a course's syllabus or download page, a module's
# reference list) asks for nothing a learner would look up.
GENERIC_TITLES = {"references", "further reading", "syllabus", "download course materials", "readings", "assignments",
                  "about the team", "resource index", "calendar", "instructor insights", "related resources",
                  "course introduction", "final exam", "exams", "lecture notes", "recitations", "video lectures"}


def openstax_headings_and_objectives(shared, unit_ids):
    """More query kinds the OpenStax book's structure answers:

    - each top-level section's heading with its module's title ("The Brain Is an Inference
      Machine The Evolutionary Advantage of Shortcuts"), the answer that section, as the
      Wikipedia headings are asked;
    - each learning objective the module states ("Explain why the brain is an inference
      machine"), the answer the module's content sections (not its #intro, which prints the
      objectives, nor its summary or references);
    - each paragraph of a module's summary (its authors' recap of one section or two), the
      answer the module's content sections likewise; the summary section, which holds the
      paragraph, is not judged;
    - each sub-section's heading alone ("The Principle of Charity"), the answer the top-level
      section holding it.
    """
    import glob
    import xml.etree.ElementTree as ET
    from eval_corpus import _local, openstax
    from corpus_passages import squash
    queries, content = [], {}
    for unit, title, _ in openstax(shared):
        if unit not in unit_ids or ": " not in title:
            continue
        module, heading = unit.split("#")[0], title.split(": ", 1)[1]
        if heading.lower() in GENERIC_TITLES:
            continue
        content.setdefault(module, set()).add(unit)
        queries.append(("openstax heading", title.replace(": ", " "), {unit: 1}))
    for path in sorted(glob.glob(os.path.join(shared, "openstax/*/modules/*/index.cnxml"))):
        module = "openstax/" + path.split(os.sep)[-2]
        if module not in content:
            continue
        answers = {unit: 1 for unit in sorted(content[module])}
        root = ET.parse(path).getroot()
        for node in root.iter():
            if _local(node.tag) == "section" and "learning-objectives" in (node.get("class") or ""):
                for item in node.iter():
                    if _local(item.tag) == "item":
                        objective = squash("".join(item.itertext()))
                        if len(objective.split()) >= 3:
                            queries.append(("openstax objective", objective, answers))
        body = next((e for e in root if _local(e.tag) == "content"), None)
        for top in body if body is not None else []:
            if _local(top.tag) != "section":
                continue
            if "summary" in (top.get("class") or ""):
                for para in top:
                    text = squash("".join(para.itertext())) if _local(para.tag) == "para" else ""
                    if len(text.split()) >= 8:
                        queries.append(("openstax summary", text, answers))
                continue
            unit = "%s#%s" % (module, top.get("id"))
            if unit not in content[module]:
                continue
            for sub in top.iter():
                heading = next((e for e in sub if _local(e.tag) == "title"), None) if sub is not top and _local(sub.tag) == "section" else None
                name = squash("".join(heading.itertext())) if heading is not None else ""
                if name and name.lower() not in GENERIC_TITLES:
                    queries.append(("openstax subheading", name, {unit: 1}))
    return queries


def lecture_titles(shared, unit_ids):
    """Each lecture video's title without its number ("16.1 Conservation of Momentum" asks
    "Conservation of Momentum"), the answer every ~90-second window of that video; each OCW
    page's title likewise, the answer that page. A title shared by several (a course's two
    "Worked Example"s) asks once, any of them an answer; furniture titles are left out."""
    from eval_corpus import ocw, transcripts
    answers = {}
    for unit, title, _ in ocw(shared) + transcripts(shared):
        if unit not in unit_ids:
            continue
        query = NUMBERING.sub("", title).strip(" -–:")
        if len(query) < 4 or query.lower() in GENERIC_TITLES or query.endswith(".srt"):
            continue
        kind = "lecture title" if "@" in unit else "ocw page title"
        answers.setdefault((kind, query), set()).add(unit)
    return [(kind, query, {unit: 1 for unit in sorted(units)}) for (kind, query), units in sorted(answers.items())]


def paired(float32_scores, int8_scores):
    """Mean of int8 - float32 per query, its bootstrap 95% interval, and how many queries moved."""
    deltas = np.asarray(int8_scores) - np.asarray(float32_scores)
    rng = np.random.default_rng(38)
    means = deltas[rng.integers(0, len(deltas), size=(BOOTSTRAP, len(deltas)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return {"queries": len(deltas), "float32": round(float(np.mean(float32_scores)), 4), "int8": round(float(np.mean(int8_scores)), 4),
            "mean_delta": round(float(deltas.mean()), 4), "ci95": [round(float(low), 4), round(float(high), 4)],
            "better": int((deltas > 1e-9).sum()), "worse": int((deltas < -1e-9).sum())}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("passages")
    parser.add_argument("dataset")
    parser.add_argument("lectern")
    parser.add_argument("--shared", help="the shared corpus: adds the paired comparison on its ground-truth queries")
    parser.add_argument("--out")
    args = parser.parse_args()
    records = [json.loads(line) for line in open(args.passages, encoding="utf-8")]
    texts = [record["text"] for record in records]
    corpus_ids = [record["corpus_id"] for record in records]
    queries = {}
    for line in open(os.path.join(args.dataset, "queries.jsonl"), encoding="utf-8"):
        query = json.loads(line)
        queries[query["_id"]] = query["text"]
    query_ids = sorted(queries)
    env = dict(os.environ, LECTERN_EMBEDDER="")
    vectors, cpu = {}, {}
    truth = ground_truth_queries(args.shared, set(corpus_ids)) if args.shared else []
    for embedder in ("minilm", "minilm-int8"):
        vectors[embedder, "passages"], cpu[embedder] = embed(args.lectern, embedder, texts, env)
        vectors[embedder, "queries"], _ = embed(args.lectern, embedder, [queries[q] for q in query_ids], env)
        if truth:
            vectors[embedder, "truth"], _ = embed(args.lectern, embedder, [text for _, text, _ in truth], env)
    cosines = sorted(float(c) for c in np.sum(vectors["minilm", "passages"] * vectors["minilm-int8", "passages"], axis=1))
    result = {
        "passages": len(texts),
        "queries": len(query_ids),
        "cpu_seconds_embedding_passages": {name: round(value, 2) for name, value in cpu.items()},
        "cosine_int8_to_float32": {"worst": round(cosines[0], 6), "p01": round(cosines[len(cosines) // 100], 6),
                                   "mean": round(sum(cosines) / len(cosines), 6)},
        "splits": {},
    }
    pairs = {"float32": ("minilm", "minilm"), "int8": ("minilm-int8", "minilm-int8"),
             "int8 queries, float32 passages": ("minilm-int8", "minilm"), "float32 queries, int8 passages": ("minilm", "minilm-int8")}
    for split in ("dev", "test"):
        qrels = {}
        for number, line in enumerate(open(os.path.join(args.dataset, "qrels", split + ".tsv"), encoding="utf-8")):
            fields = line.rstrip("\n").split("\t")
            if number == 0 and fields[0] == "query-id":
                continue
            qrels.setdefault(fields[0], {})[fields[1]] = int(fields[2])
        row, per_query = {}, {}
        for name, (query_embedder, passage_embedder) in pairs.items():
            scores = []
            for index, qid in enumerate(query_ids):
                if qid not in qrels:
                    continue
                ranked = ranking(vectors[query_embedder, "queries"][index], vectors[passage_embedder, "passages"], corpus_ids)
                scores.append(ndcg10(ranked, qrels[qid]))
            row[name] = round(sum(scores) / len(scores), 4)
            per_query[name] = scores
        row["paired int8 - float32"] = paired(per_query["float32"], per_query["int8"])
        row["_scores"] = per_query
        result["splits"][split] = row
    if truth:
        scores = {}
        for embedder in ("minilm", "minilm-int8"):
            scores[embedder] = [ndcg10(ranking(vectors[embedder, "truth"][index], vectors[embedder, "passages"], corpus_ids), judged)
                                for index, (_, _, judged) in enumerate(truth)]
        kinds = sorted({kind for kind, _, _ in truth})
        result["ground_truth_paired"] = {"all": paired(scores["minilm"], scores["minilm-int8"])}
        evaluated = {name: [score for split in ("dev", "test") for score in result["splits"][split]["_scores"][name]]
                     for name in ("float32", "int8")}
        result["ground_truth_paired"]["all, with the eval set"] = paired(scores["minilm"] + evaluated["float32"],
                                                                         scores["minilm-int8"] + evaluated["int8"])
        for kind in kinds:
            chosen = [index for index, (k, _, _) in enumerate(truth) if k == kind]
            result["ground_truth_paired"][kind] = paired([scores["minilm"][i] for i in chosen], [scores["minilm-int8"][i] for i in chosen])
    for split in result["splits"].values():
        split.pop("_scores", None)
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
