"""Where minilm-int8's error comes from: MiniLM run in PyTorch (float64 reference arithmetic) with the
int8 rounding of Sources/CGemm/gemm_int8.c applied to chosen products only, and the cosine of each
passage's final vector to float32's.

    bench/.venv-st/bin/python bench/int8_error.py [--passages bench/work/minilm-passages.txt] [--count 256]

Prints, for the rounding as main has it (7-bit activations per row with a zero point, weights
per output column to ±127) and for the variants tried:
- one product at a time (Q/K/V, attention output, FFN up, FFN down, each of 6 layers) quantized,
  the rest float: which product loses what;
- every product quantized under each variant: the mix's worst and mean cosine.
The variants: 8-bit activations (255 levels), LayerNorm's outlier channels kept in float32 (the
channels whose |gain|·4 + |bias| is largest: a static choice from the weights alone), FFN down
in float32.

    bench/.venv-st/bin/python bench/int8_error.py --smooth --fixed-only \
        --passages-jsonl bench/work/eval/passages.jsonl --count 64 --alphas 0.3,0.5,0.7 --down plain,float32

SmoothQuant as minilm-int8 does it (Embed/MiniLM/Smoothing.swift): each product's input channel
divided by max|X|^α / max|W|^(1-α) before its row is quantized, the weight's column multiplied by
it; the channel maxima from the fixed calibration text in SmoothingCalibration.swift (and, without
--fixed-only, from 64 other eval passages, to compare); --down says what the FFN-down product gets:
plain, float32, smoothed (the same α) or smoothed@α. Measured on --count passages of
--passages-jsonl (shuffled, seed 7).
"""
import argparse
import os

import numpy as np
import torch
from safetensors.torch import load_file
from tokenizers import Tokenizer

torch.set_grad_enabled(False)
DTYPE = torch.float32
KINDS = ("qkv", "attention-out", "ffn-up", "ffn-down")


def gelu(x):
    return 0.5 * x * (1 + torch.erf(x / 2 ** 0.5))


def layer_norm(x, gain, bias):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-12) * gain + bias


def quantize_weight(w, levels=127):
    """Per output row (a column of the product), symmetric, ±levels, round half to even."""
    scale = w.abs().amax(1, keepdim=True) / levels
    scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    return torch.clamp(torch.round(w / scale), -levels, levels) * scale


def quantize_rows(a, levels):
    """Per row with a zero point, as quantize_row in gemm_int8.c: levels 127 (7 bits) or 255."""
    low = torch.clamp(a.amin(-1, keepdim=True), max=0)
    high = torch.clamp(a.amax(-1, keepdim=True), min=0)
    scale = (high - low) / levels
    scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    zero = torch.clamp(torch.round(-low / scale), max=levels)
    codes = torch.clamp(torch.floor(a / scale + zero + 0.5), 0, levels)
    return (codes - zero) * scale


class Model:
    def __init__(self, directory):
        t = {k: v.to(DTYPE) for k, v in load_file(os.path.join(directory, "model.safetensors")).items()}
        t = {k.removeprefix("bert."): v for k, v in t.items()}
        self.t = t
        self.tokenizer = Tokenizer.from_file(os.path.join(directory, "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(256)
        self.layers = []
        for i in range(6):
            p = "encoder.layer.%d." % i
            self.layers.append({
                "qkv": (torch.cat([t[p + "attention.self.%s.weight" % n] for n in ("query", "key", "value")]),
                        torch.cat([t[p + "attention.self.%s.bias" % n] for n in ("query", "key", "value")])),
                "attention-out": (t[p + "attention.output.dense.weight"], t[p + "attention.output.dense.bias"]),
                "norm1": (t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"]),
                "ffn-up": (t[p + "intermediate.dense.weight"], t[p + "intermediate.dense.bias"]),
                "ffn-down": (t[p + "output.dense.weight"], t[p + "output.dense.bias"]),
                "norm2": (t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"]),
            })
        self.quantized_weights = {}
        self.record = None

    def linear(self, a, layer, kind, plan):
        w, b = self.layers[layer][kind]
        rule = plan(layer, kind)
        if self.record is not None:
            top = a.abs().reshape(-1, a.shape[-1]).amax(0)
            old = self.record.get((layer, kind))
            self.record[(layer, kind)] = top if old is None else torch.maximum(old, top)
        if rule is None:
            return a @ w.T + b
        levels, outliers, smooth, wlevels = rule
        if isinstance(outliers, int):
            # Each row's own `outliers` largest |values| in float32, the rest quantized.
            key = (layer, kind, wlevels)
            if key not in self.quantized_weights:
                self.quantized_weights[key] = w if wlevels is None else quantize_weight(w, wlevels)
            wq = self.quantized_weights[key]
            count = outliers if outliers > 0 else a.shape[-1] // -outliers
            top = a.abs().topk(count, -1).indices
            apart = torch.zeros_like(a).scatter(-1, top, a.gather(-1, top))
            return b + apart @ w.T + quantize_rows(a - apart, levels) @ wq.T
        key = (layer, kind, tuple(outliers), None if smooth is None else float(smooth.sum()), wlevels)
        if key not in self.quantized_weights:
            ws = w if smooth is None else w * smooth
            wq = ws.clone()
            keep = torch.ones(w.shape[1], dtype=torch.bool)
            keep[list(outliers)] = False
            wq[:, keep] = quantize_weight(ws[:, keep], wlevels)
            self.quantized_weights[key] = (wq, keep)
        wq, keep = self.quantized_weights[key]
        out = b.clone().expand(a.shape[:-1] + (w.shape[0],)).clone()
        if outliers:
            out = out + a[..., ~keep] @ w[:, ~keep].T
        a = a if smooth is None else a / smooth
        return out + quantize_rows(a[..., keep], levels) @ wq[:, keep].T

    def encode(self, texts, plan, batch=32):
        out = []
        for start in range(0, len(texts), batch):
            encodings = [self.tokenizer.encode(text).ids for text in texts[start:start + batch]]
            longest = max(len(e) for e in encodings)
            ids = torch.zeros(len(encodings), longest, dtype=torch.long)
            mask = torch.zeros(len(encodings), longest, dtype=DTYPE)
            for i, e in enumerate(encodings):
                ids[i, :len(e)] = torch.tensor(e)
                mask[i, :len(e)] = 1
            out.append(self.forward(ids, mask, plan))
        return torch.cat(out)

    def forward(self, ids, mask, plan):
        t = self.t
        n = ids.shape[1]
        x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:n] + \
            t["embeddings.token_type_embeddings.weight"][0]
        x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        bias = (1 - mask)[:, None, None, :] * -1e9
        for i, layer in enumerate(self.layers):
            qkv = self.linear(x, i, "qkv", plan)
            q, k, v = (qkv[..., j * 384:(j + 1) * 384].reshape(x.shape[0], n, 12, 32).transpose(1, 2) for j in range(3))
            scores = torch.softmax(q @ k.transpose(-1, -2) / 32 ** 0.5 + bias, -1)
            context = (scores @ v).transpose(1, 2).reshape(x.shape[0], n, 384)
            x = layer_norm(x + self.linear(context, i, "attention-out", plan), *layer["norm1"])
            up = gelu(self.linear(x, i, "ffn-up", plan))
            x = layer_norm(x + self.linear(up, i, "ffn-down", plan), *layer["norm2"])
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return torch.nn.functional.normalize(pooled, dim=-1)

    def outlier_channels(self, layer, kind, count):
        """The inputs of a product fed by a LayerNorm whose range is widest: |gain|·4 + |bias|."""
        if count == 0 or kind not in ("qkv", "ffn-up"):
            return ()
        if kind == "qkv":
            gain, bias = self.layers[layer - 1]["norm2"] if layer > 0 else (self.t["embeddings.LayerNorm.weight"], self.t["embeddings.LayerNorm.bias"])
        else:
            gain, bias = self.layers[layer]["norm1"]
        reach = gain.abs() * 4 + bias.abs()
        return tuple(sorted(torch.topk(reach, count).indices.tolist()))


def report(name, reference, vectors):
    cos = (reference * vectors).sum(-1)
    print("%-60s worst %.5f  p01 %.5f  mean %.5f" % (name, cos.min(), torch.quantile(cos, 0.01), cos.mean()), flush=True)
    return cos


def calibration_texts(path="Sources/Lectern/Embed/MiniLM/SmoothingCalibration.swift"):
    """The fixed calibration text minilm-int8 runs in float32 at load (the Swift file's strings)."""
    import re
    source = open(path, encoding="utf-8").read()
    texts = re.findall(r'"""\n(.*?)\n\s*"""', source, re.S)
    return [re.sub(r"\s*\\\n\s*", " ", text).strip() for text in texts]


def smooth_variants(model, texts, reference, args):
    """SmoothQuant: s_j = max|X_j|^a / max|W_j|^(1-a) per input channel of each product, the
    activations divided by s (in the row's quantization), the weight's columns multiplied by it."""
    sources = {"fixed text": calibration_texts()}
    if args.passages_jsonl:
        import json, random
        records = [json.loads(line)["text"] for line in open(args.passages_jsonl, encoding="utf-8")]
        random.Random(7).shuffle(records)
        if not args.fixed_only:
            sources["64 other passages"] = records[-64:]
    ranges_by = {}
    for name, calibration in sources.items():
        model.record = {}
        model.encode(calibration, lambda layer, kind: None)
        ranges_by[name] = model.record
        model.record = None
        tokens = sum(len(model.tokenizer.encode(t).ids) for t in calibration)
        print("calibration %s: %d texts, %d tokens" % (name, len(calibration), tokens), flush=True)

    def smoothing(ranges, layer, kind, alpha):
        w = model.layers[layer][kind][0]
        return ranges[(layer, kind)].clamp(min=1e-5) ** alpha / w.abs().amax(0).clamp(min=1e-5) ** (1 - alpha)

    def plan_for(ranges, alpha, down):
        def plan(l, k):
            if k == "ffn-down" and down == "float32":
                return None
            if k == "ffn-down" and down == "plain":
                return (127, (), None, 127)
            if k == "ffn-down" and down.startswith("smoothed@"):
                return (127, (), smoothing(ranges, l, k, float(down[9:])), 127)
            return (127, (), smoothing(ranges, l, k, alpha), 127)
        return plan

    report("main (no smoothing)", reference, model.encode(texts, lambda l, k: (127, (), None, 127)))
    for alpha in [float(a) for a in args.alphas.split(",")]:
        for down in args.down.split(","):
            for name, ranges in ranges_by.items():
                report("smooth a=%.2f, ffn-down %s, calibrated on %s" % (alpha, down, name), reference,
                       model.encode(texts, plan_for(ranges, alpha, down)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", default="bench/work/minilm-passages.txt")
    parser.add_argument("--passages-jsonl", help="measure on these passages (lectern eval --dump-passages)")
    parser.add_argument("--count", type=int, default=256)
    parser.add_argument("--model", default=os.path.expanduser("~/.cache/lectern/models/all-MiniLM-L6-v2"))
    parser.add_argument("--per-product", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--ranges", action="store_true", help="calibrate per-channel ranges (the smoothing and range variants)")
    parser.add_argument("--smooth", action="store_true", help="SmoothQuant variants (--alphas, --down)")
    parser.add_argument("--alphas", default="0.5")
    parser.add_argument("--fixed-only", action="store_true", help="calibrate on the fixed text only")
    parser.add_argument("--down", default="smoothed", help="ffn-down: smoothed, plain, float32 (comma-separated)")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("THREADS", "2")))
    if args.passages_jsonl:
        import json, random
        records = [json.loads(line)["text"] for line in open(args.passages_jsonl, encoding="utf-8")]
        random.Random(7).shuffle(records)
        texts = records[:args.count]
    else:
        lines = [line.strip() for line in open(args.passages, encoding="utf-8") if line.strip()]
        texts = lines[:args.count]
    model = Model(args.model)
    if args.smooth:
        reference = model.encode(texts, lambda layer, kind: None)
        smooth_variants(model, texts, reference, args)
        return
    lines = [line.strip() for line in open(args.passages, encoding="utf-8") if line.strip()]
    # Calibration passages for the per-channel ranges: others than those measured.
    calibration = lines[-args.count:]
    ranges = {}
    if args.ranges:
        model.record = {}
        model.encode(calibration, lambda layer, kind: (127, (), None, 127))
        ranges = model.record
        model.record = None
    for kind in KINDS if ranges else ():
        for layer in range(6):
            top = ranges[(layer, kind)]
            s = torch.sort(top, descending=True).values
            print("range %-13s layer %d: largest %s, median %.3f" % (kind, layer, " ".join("%.2f" % v for v in s[:8]), s.median()))
    reference = model.encode(texts, lambda layer, kind: None)

    if args.per_product:
        for kind in KINDS:
            plan = lambda l, k, kind=kind: (127, (), None, 127) if k == kind else None
            report("only %s (every layer), 7-bit" % kind, reference, model.encode(texts, plan))
            plan = lambda l, k, kind=kind: (255, (), None, 127) if k == kind else None
            report("only %s (every layer), 8-bit" % kind, reference, model.encode(texts, plan))
            plan = lambda l, k, kind=kind: (127, 8, None, 127) if k == kind else None
            report("only %s (every layer), 7-bit, row top-8 float" % kind, reference, model.encode(texts, plan))
        for kind in KINDS:
            for layer in range(6):
                plan = lambda l, k, kind=kind, layer=layer: (127, (), None, 127) if (l, k) == (layer, kind) else None
                report("only %s layer %d, 7-bit" % (kind, layer), reference, model.encode(texts, plan))
        return

    def smoothing(layer, kind, alpha):
        w = model.layers[layer][kind][0]
        s = ranges[(layer, kind)].clamp(min=1e-5) ** alpha / w.abs().amax(0).clamp(min=1e-5) ** (1 - alpha)
        return s

    def outliers_by_range(layer, kind, count):
        if count == 0:
            return ()
        return tuple(sorted(torch.topk(ranges[(layer, kind)], count).indices.tolist()))

    def mix(levels, outliers=0, float_kinds=(), alpha=None, wlevels=127, by_range=False):
        def plan(l, k):
            if k in float_kinds:
                return None
            chosen = outliers_by_range(l, k, outliers) if by_range else model.outlier_channels(l, k, outliers)
            return (levels, chosen, None if alpha is None else smoothing(l, k, alpha), wlevels)
        return plan

    def row_top(levels, count, float_kinds=()):
        return lambda l, k: None if k in float_kinds else (levels, count, None, 127)

    variants = [
        ("all, 7-bit, row top k/48 float", row_top(127, -48)),
        ("all, 7-bit, row top k/24 float", row_top(127, -24)),
        ("all, 7-bit (main)", mix(127)),
        ("all, 7-bit, row top-8 float", row_top(127, 8)),
        ("all, 8-bit", mix(255)),
        ("all, 7-bit, 4 LN outliers float", mix(127, 4)),
        ("all but ffn-down, 7-bit, row top-8 float", row_top(127, 8, ("ffn-down",))),
        ("all, 7-bit, row top-4 float", row_top(127, 4)),
        ("all, 8-bit, row top-8 float", row_top(255, 8)),
        ("all, 8-bit acts, 7-bit weights, row top-8", (lambda l, k: (255, 8, None, 63))),
        ("all but ffn-down, 7-bit", mix(127, float_kinds=("ffn-down",))),
        ("all, 7-bit, row top-16 float", row_top(127, 16)),
        ("all, 7-bit, row top-32 float", row_top(127, 32)),
        ("float weights, 7-bit activations, row top-8 float", lambda l, k: (127, 8, None, None)),
        ("float weights, 7-bit activations, row top-16 float", lambda l, k: (127, 16, None, None)),
        ("all, 7-bit, 8 range outliers float", mix(127, 8, by_range=True)),
        ("all, 7-bit, smooth 0.5", mix(127, alpha=0.5)),
    ]
    for name, plan in variants:
        if args.only and args.only not in name:
            continue
        report(name, reference, model.encode(texts, plan))


if __name__ == "__main__":
    main()
