"""Topic summaries against the authors' own: ROUGE-1/2/L of Lectern's offline summariser and its
peers on the OpenStax philosophy book, each module's summary section withheld.

    summary_rouge.py BOOK_JSON LECTERN OUT_JSON

BOOK_JSON is `lectern curriculum export NAME --format json` of the book (its topics' passages
with their section paths and kinds). For every module with a "Summary" section: the reference is
that section's text; the input is the module's other passages, without its objectives,
glossary, exercises and captions (what `curriculum build` summarises). Every system reads the
same input and is cut to the reference's length in words:

- lectern: `lectern summarize --paragraphs -` (ExtractiveSummarizer, the offline topic summary),
  asked for the reference's length;
- lead: the input's first words;
- sumy's TextRank, LexRank and LSA (PyPI sumy, English Snowball stemmer and stop words), whose
  ranked sentences are taken best first until the length is reached, then put in reading order.
  sumy's own tokenizer needs NLTK's punkt_tab, which is not fetched here: every system's
  sentences come from SPLIT below, a port of Lectern's SentenceSplitter (a sentence ends at
  . ! ? followed by a space and a capital, digit or opening mark, not after a known
  abbreviation or an initial), and sumy's words from the regex \\w+.

Scores: Google's rouge-score (PyPI rouge-score), F1 with its Porter stemmer, averaged over the
modules. ROUGE-L is the summary-level LCS (rougeLsum, sentences on new lines).
"""
import datetime
import json
import re
import subprocess
import sys

from rouge_score import rouge_scorer
from sumy.nlp.stemmers import Stemmer
from sumy.parsers.plaintext import PlaintextParser
from sumy.summarizers.lex_rank import LexRankSummarizer
from sumy.summarizers.lsa import LsaSummarizer
from sumy.summarizers.text_rank import TextRankSummarizer
from sumy.utils import get_stop_words

ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "cf", "dr", "mr", "mrs", "ms", "prof", "fig", "eq", "no", "vol", "pp", "p",
                 "ch", "sec", "st", "jr", "sr", "al", "approx", "ca", "dept", "inc", "ltd"}
END = re.compile(r"([.!?…][\"'”’)\]]*)\s+(?=[A-Z0-9\"'“‘(\[]|[^\W\d_])")
SUMMARY_HEADINGS = {"summary"}


def split(text):
    """Sentences, by Lectern's SentenceSplitter rule."""
    text = re.sub(r"\s+", " ", text).strip()
    sentences, start = [], 0
    for match in END.finditer(text):
        end = match.end(1)
        nxt = text[match.end():match.end() + 1]
        if not (nxt.isupper() or nxt.isdigit() or nxt in "\"'“‘(["):
            continue
        if match.group(1).startswith("."):
            word = re.search(r"([\w.]+)$", text[start:match.start(1)])
            token = word.group(1).lower() if word else ""
            if token in ABBREVIATIONS or (len(token) == 1 and token.isalpha()):
                continue
        sentences.append(text[start:end].strip())
        start = match.end()
    if text[start:].strip():
        sentences.append(text[start:].strip())
    return sentences


class Tokenizer:
    """sumy's tokenizer interface over SPLIT and \\w+ (no NLTK data needed)."""
    language = "english"

    def to_sentences(self, paragraph):
        return split(paragraph)

    def to_words(self, sentence):
        return re.findall(r"\w+", sentence)


def words(text):
    return text.split()


def cut(sentences, length):
    """Sentences joined one a line, cut to `length` words."""
    out, count = [], 0
    for sentence in sentences:
        if count >= length:
            break
        ws = words(sentence)[:length - count]
        out.append(" ".join(ws))
        count += len(ws)
    return "\n".join(out)


def sumy_summary(summarizer_class, paragraphs, length):
    parser = PlaintextParser.from_string("\n\n".join(paragraphs), Tokenizer())
    summarizer = summarizer_class(Stemmer("english"))
    summarizer.stop_words = get_stop_words("english")
    sentences = list(parser.document.sentences)
    # sumy rates every sentence, then keeps the best N in reading order: its rating is
    # captured once, and sentences are taken best first until the length is reached.
    captured = {}
    original = summarizer._get_best_sentences

    def capture(sentences_, count, rating, *args, **kwargs):
        # LSA's rating is an iterator read once, in reading order: read it here.
        values = [rating(s) if callable(rating) else rating[s] for s in sentences_]
        captured["scores"] = values
        return original(sentences_, count, dict(zip(sentences_, values)), *args, **kwargs)

    summarizer._get_best_sentences = capture
    summarizer(parser.document, len(sentences))
    scores = captured["scores"]
    order = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    chosen, count = [], 0
    for i in order:
        if count >= length:
            break
        chosen.append(i)
        count += len(words(str(sentences[i])))
    return cut([str(sentences[i]) for i in sorted(chosen)], length)


def modules(book):
    for unit in book["curriculum"]["units"]:
        for topic in unit["topics"]:
            passages = topic["passages"]
            summary = [p for p in passages if len(p["sectionPath"]) >= 2 and p["sectionPath"][-1].strip().lower() in SUMMARY_HEADINGS]
            if not summary:
                continue
            content = [p["text"] for p in passages
                       if p not in summary and p["kind"] not in ("objective", "glossary", "exercise", "caption")]
            # Passages repeat the last sentences of the one before (the chunker's overlap): every
            # system reads each sentence once.
            seen, unique = set(), []
            for text in content:
                kept = [s for s in split(text) if not (s in seen or seen.add(s))]
                if kept:
                    unique.append(" ".join(kept))
            content = unique
            reference = " ".join(p["text"] for p in summary)
            yield topic["title"], content, reference


def main():
    book_path, lectern, out_path = sys.argv[1:4]
    with open(book_path, encoding="utf-8") as f:
        book = json.load(f)
    items = list(modules(book))
    requests = "".join(json.dumps({"title": title, "paragraphs": content, "words": len(words(reference))}) + "\n"
                       for title, content, reference in items)
    answer = subprocess.run([lectern, "summarize", "--paragraphs", "-"], input=requests, capture_output=True, text=True, check=True)
    lectern_summaries = [json.loads(line)["summary"] for line in answer.stdout.splitlines() if line.strip()]
    assert len(lectern_summaries) == len(items), "lectern answered %d of %d" % (len(lectern_summaries), len(items))

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"], use_stemmer=True)
    systems = {"lectern": [], "lead": [], "textrank": [], "lexrank": [], "lsa": []}
    samples = []
    for (title, content, reference), ours in zip(items, lectern_summaries):
        length = len(words(reference))
        outputs = {
            "lectern": cut(split(ours), length),
            "lead": cut([s for p in content for s in split(p)], length),
            "textrank": sumy_summary(TextRankSummarizer, content, length),
            "lexrank": sumy_summary(LexRankSummarizer, content, length),
            "lsa": sumy_summary(LsaSummarizer, content, length),
        }
        ref = "\n".join(split(reference))
        for name, text in outputs.items():
            score = scorer.score(ref, text)
            systems[name].append({k: score[k].fmeasure for k in ("rouge1", "rouge2", "rougeLsum")})
        samples.append({"title": title, "words": length, "reference": reference, "lectern": outputs["lectern"].replace("\n", " ")})

    table = {}
    for name, scores in systems.items():
        table[name] = {k: round(sum(s[k] for s in scores) / len(scores), 4) for k in ("rouge1", "rouge2", "rougeLsum")}
    result = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "modules": len(items), "systems": table, "splitter": "Lectern's SentenceSplitter rule (bench/summary_rouge.py split)",
              "scorer": "rouge-score F1, Porter stemmer; rougeL is rougeLsum", "samples": samples[:5]}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2, ensure_ascii=False)
    print("summaries of %d modules against the authors' (F1, cut to their length)" % len(items))
    print("%-10s %8s %8s %8s" % ("system", "ROUGE-1", "ROUGE-2", "ROUGE-L"))
    for name, row in sorted(table.items(), key=lambda kv: -kv[1]["rouge2"]):
        print("%-10s %8.4f %8.4f %8.4f" % (name, row["rouge1"], row["rouge2"], row["rougeLsum"]))


if __name__ == "__main__":
    main()
