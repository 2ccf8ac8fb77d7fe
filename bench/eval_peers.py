"""Peers of `lectern eval` on the SAME passages: rank-bm25 (BM25Okapi), sentence-transformers
with all-MiniLM-L6-v2 (the weights Lectern uses, from ~/.cache/lectern/models), and their
reciprocal-rank fusion (k = 60, 300 passages from each, as Lectern's hybrid search).

    bench/.venv-st/bin/python bench/eval_peers.py --passages P.jsonl --dataset DIR --split test --runs OUTDIR

P.jsonl is `lectern eval DIR --dump-passages P.jsonl` ({corpus_id, passage, section, text} a
line). Each peer ranks every passage; documents are ranked by their best passage (the first
time a corpus id appears), 100 kept, exactly as `lectern eval` does. Writes OUTDIR/PEER.SPLIT.trec
(score the runs with bench/eval_oracle.py) and prints the seconds per query of each as JSON.
BM25 sees the section (the record's title) and the text, as Lectern's FTS5 index does, with
Porter stemming and Lectern's stopwords; MiniLM embeds the text alone, as Lectern does.
"""
import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
import time

import numpy as np

MODEL_DIR = os.path.join(os.environ.get("LECTERN_MODELS", os.path.expanduser("~/.cache/lectern/models")), "all-MiniLM-L6-v2")
# Searcher.stopwords in Sources/Lectern/Search/Searcher.swift.
STOPWORDS = set("a an and are as at be by do does for from how in is it of on or that the this to was what when where which who why with".split())
WORD = re.compile(r"\w+", re.UNICODE)
PASSAGE_DEPTH = 300
DOCUMENT_DEPTH = 100


def stemmer():
    try:
        from nltk.stem.porter import PorterStemmer
        stem = PorterStemmer(mode=PorterStemmer.MARTIN_EXTENSIONS).stem
        return lambda word: stem(word)
    except ImportError:
        sys.stderr.write("eval_peers: nltk is absent, BM25 runs without stemming\n")
        return lambda word: word


def sentence_transformer():
    """all-MiniLM-L6-v2 from Lectern's model folder: its three files plus the configuration
    sentence-transformers expects (written here; no hub download)."""
    from sentence_transformers import SentenceTransformer
    folder = tempfile.mkdtemp(prefix="lectern-minilm-")
    for name in ("model.safetensors", "vocab.txt", "tokenizer.json"):
        os.symlink(os.path.join(MODEL_DIR, name), os.path.join(folder, name))
    files = {
        "config.json": {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": 384, "num_hidden_layers": 6,
                        "num_attention_heads": 12, "intermediate_size": 1536, "hidden_act": "gelu", "vocab_size": 30522,
                        "max_position_embeddings": 512, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
                        "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1, "pad_token_id": 0,
                        "initializer_range": 0.02, "position_embedding_type": "absolute"},
        "tokenizer_config.json": {"do_lower_case": True, "model_max_length": 512, "tokenizer_class": "BertTokenizer",
                                  "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
                                  "mask_token": "[MASK]", "strip_accents": None, "tokenize_chinese_chars": True},
        "special_tokens_map.json": {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"},
        "modules.json": [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
                         {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
                         {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}],
        "sentence_bert_config.json": {"max_seq_length": 256, "do_lower_case": False},
        "1_Pooling/config.json": {"word_embedding_dimension": 384, "pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False,
                                  "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False},
    }
    for name, content in files.items():
        os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
        with open(os.path.join(folder, name), "w") as handle:
            json.dump(content, handle)
    os.makedirs(os.path.join(folder, "2_Normalize"), exist_ok=True)
    return SentenceTransformer(folder, device="cpu")


def documents(order, scores, corpus_ids):
    """Passage indexes best first → [(corpus id, score)] by best passage, 100 at most."""
    seen, ranking = set(), []
    for index in order:
        cid = corpus_ids[index]
        if cid in seen:
            continue
        seen.add(cid)
        score = float(scores[index])
        # trec_eval holds scores as 32-bit floats and breaks ties by document id: keep them distinct there.
        if ranking and np.float32(score) >= np.float32(ranking[-1][1]):
            score = float(np.nextafter(np.float32(ranking[-1][1]), np.float32(-np.inf)))
        ranking.append((cid, score))
        if len(ranking) == DOCUMENT_DEPTH:
            break
    return ranking


def top(scores, depth):
    depth = min(depth, len(scores))
    part = np.argpartition(-scores, depth - 1)[:depth]
    return part[np.lexsort((part, -scores[part]))]


def write_run(path, runs, tag):
    with open(path, "w") as handle:
        for query, ranking in runs.items():
            for rank, (cid, score) in enumerate(ranking, 1):
                handle.write("%s Q0 %s %d %r %s\n" % (query, cid, rank, float(score), tag))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--split", default="test")
    parser.add_argument("--runs", required=True)
    parser.add_argument("--peers", default="bm25,minilm,rrf")
    args = parser.parse_args()
    peers = args.peers.split(",")
    with open(args.passages, encoding="utf-8") as handle:
        passages = [json.loads(line) for line in handle if line.strip()]
    corpus_ids = [p["corpus_id"] for p in passages]
    judged = set()
    with open(os.path.join(args.dataset, "qrels", args.split + ".tsv"), encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number:
                judged.add(line.split("\t")[0])
    with open(os.path.join(args.dataset, "queries.jsonl"), encoding="utf-8") as handle:
        queries = [q for q in map(json.loads, filter(str.strip, handle)) if q["_id"] in judged]
    os.makedirs(args.runs, exist_ok=True)
    timing, runs = {}, {peer: {} for peer in peers}
    keyword, semantic = {}, {}

    if "bm25" in peers or "rrf" in peers:
        from rank_bm25 import BM25Okapi
        stem = stemmer()

        def tokens(text):
            return [stem(w) for w in WORD.findall(text.lower())]

        bm25 = BM25Okapi([tokens(" ".join(p["section"]) + " " + p["text"]) for p in passages])
        start = time.perf_counter()
        for query in queries:
            words = [w for w in tokens(query["text"]) if w not in {stem(s) for s in STOPWORDS}] or tokens(query["text"])
            scores = bm25.get_scores(words)
            # Like FTS5, BM25 finds only passages holding a query word.
            keyword[query["_id"]] = ([i for i in top(scores, PASSAGE_DEPTH) if scores[i] > 0], scores)
            runs.setdefault("bm25", {})[query["_id"]] = documents(keyword[query["_id"]][0], scores, corpus_ids)
        timing["bm25"] = (time.perf_counter() - start) / len(queries)

    if "minilm" in peers or "rrf" in peers:
        model = sentence_transformer()
        # The passages' vectors are kept beside them, keyed by their text: the second split reuses them.
        key = hashlib.sha256("\n".join(p["text"] for p in passages).encode()).hexdigest()
        cache = args.passages + ".minilm.npz"
        if os.path.exists(cache) and str(np.load(cache)["key"]) == key:
            vectors = np.load(cache)["vectors"]
        else:
            start = time.perf_counter()
            vectors = model.encode([p["text"] for p in passages], batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
            timing["minilm_index_seconds"] = time.perf_counter() - start
            np.savez(cache, key=key, vectors=vectors)
        start = time.perf_counter()
        for query in queries:
            scores = vectors @ model.encode([query["text"]], normalize_embeddings=True, convert_to_numpy=True)[0]
            semantic[query["_id"]] = (top(scores, PASSAGE_DEPTH), scores)
            runs.setdefault("minilm", {})[query["_id"]] = documents(semantic[query["_id"]][0], scores, corpus_ids)
        timing["minilm"] = (time.perf_counter() - start) / len(queries)

    if "rrf" in peers:
        for query in queries:
            fused = np.zeros(len(passages))
            for order, _ in (keyword[query["_id"]], semantic[query["_id"]]):
                for rank, index in enumerate(order, 1):
                    fused[index] += 1.0 / (60 + rank)
            order = [i for i in top(fused, 2 * PASSAGE_DEPTH) if fused[i] > 0]
            runs["rrf"][query["_id"]] = documents(order, fused, corpus_ids)

    for peer in peers:
        write_run(os.path.join(args.runs, "%s.%s.trec" % (peer, args.split)), runs[peer], peer)
    print(json.dumps({"split": args.split, "queries": len(queries), "passages": len(passages), "seconds_per_query": timing}, indent=1))


if __name__ == "__main__":
    main()
