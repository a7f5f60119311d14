#!/usr/bin/env python3
"""The bench layer of scripts/bench.ts in PyTorch (if importable) or numpy, float64, for the ratio.

d_model 768, 12 heads of d_k = d_v = 64, causal mask, W_O 768 x 768; per head Q, K, V, scores, scaled,
weights and output are all kept, as the core keeps them. The weights are random (uniform +-0.1, as in
the bench); their values do not change the time. Timing as in bench.ts: one warm-up run, then runs
until at least 0.5 s and 3 runs have passed; the median in ms.

  python3 scripts/bench_reference.py [--sizes 16,128,512] [--threads 2]

Prints one JSON object on stdout: {"backend": "...", "threads": N, "compute": [{"n": 16, "ms": ...}, ...]}.
Needs only numpy (or torch); the project's tests never depend on this script.
"""
import argparse
import json
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--sizes", default="16,128,512")
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--backend", choices=["auto", "torch", "numpy"], default="auto")
args = parser.parse_args()
sizes = [int(s) for s in args.sizes.split(",") if s]
threads = max(1, args.threads)
# The BLAS reads its thread count when it loads, so this goes before the imports.
for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[name] = str(threads)

import numpy as np  # noqa: E402

torch = None
if args.backend in ("auto", "torch"):
    try:
        import torch  # noqa: E402
        torch.set_num_threads(threads)
    except ImportError:
        if args.backend == "torch":
            sys.exit("torch is not importable")
        torch = None

D_MODEL, HEADS, DK = 768, 12, 64


def timed(fn, min_s=0.5, min_runs=3):
    fn()  # warm up
    times = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < min_s:
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return times[len(times) // 2]


def numpy_layer(n):
    rng = np.random.default_rng(7)
    u = lambda *shape: rng.uniform(-0.1, 0.1, shape)
    x, wq, wk, wv, wo = u(n, D_MODEL), u(HEADS, D_MODEL, DK), u(HEADS, D_MODEL, DK), u(HEADS, D_MODEL, DK), u(HEADS * DK, D_MODEL)
    masked = np.triu(np.ones((n, n), dtype=bool), 1)

    def run():
        outputs = []
        for h in range(HEADS):
            q, k, v = x @ wq[h], x @ wk[h], x @ wv[h]
            scores = q @ k.T
            scaled = np.where(masked, -np.inf, scores / np.sqrt(DK))
            e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
            weights = e / e.sum(axis=1, keepdims=True)
            outputs.append(weights @ v)
        return np.concatenate(outputs, axis=1) @ wo

    return run


def torch_layer(n):
    g = torch.Generator().manual_seed(7)
    u = lambda *shape: (torch.rand(*shape, generator=g, dtype=torch.float64) - 0.5) * 0.2
    x, wq, wk, wv, wo = u(n, D_MODEL), u(HEADS, D_MODEL, DK), u(HEADS, D_MODEL, DK), u(HEADS, D_MODEL, DK), u(HEADS * DK, D_MODEL)
    masked = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)

    def run():
        with torch.no_grad():
            outputs = []
            for h in range(HEADS):
                q, k, v = x @ wq[h], x @ wk[h], x @ wv[h]
                scores = q @ k.T
                scaled = (scores / DK ** 0.5).masked_fill(masked, float("-inf"))
                weights = torch.softmax(scaled, dim=1)
                outputs.append(weights @ v)
            return torch.cat(outputs, dim=1) @ wo

    return run


if torch is not None:
    backend, layer = f"PyTorch {torch.__version__} float64", torch_layer
else:
    backend, layer = f"numpy {np.__version__} float64", numpy_layer
result = {"backend": backend, "threads": threads, "compute": [{"n": n, "ms": round(timed(layer(n)), 3)} for n in sizes]}
print(json.dumps(result))
