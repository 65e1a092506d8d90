#!/usr/bin/env python3
"""RotaryEmbeddingFwdOp on the GPU beside torch eager (vLLM's forward_native: gather the cache
rows, rotate with torch ops) and a device copy of the bytes the op must move, timed the same way
as bench/torch/gemm_bench.py (torch.profiler kernel records, L2 flushed before each call, median).
Every tileops output is checked against the torch one first.

    python3 bench/torch/rotary_bench.py [--iters N] [--out FILE.json]
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import tileops_torch  # noqa: E402
from kernel_timing import Flush, median_times  # noqa: E402

ROWS = [  # label, tokens, query heads, key heads, head dim, cache rows, rotary dim, neox, dtype
    ("llama-8b-decode", 1, 32, 8, 128, 8192, 128, True, torch.bfloat16),
    ("llama-8b-decode-batch64", 64, 32, 8, 128, 131072, 128, True, torch.bfloat16),
    ("llama-8b-prefill", 4096, 32, 8, 128, 8192, 128, True, torch.bfloat16),
    ("gptj-partial-rotary", 2048, 16, 16, 256, 2048, 64, False, torch.float16),
    ("odd-heads-prefill", 1000, 7, 1, 96, 4096, 64, True, torch.bfloat16),
]


def torch_rotary(positions, query, key, cache, neox):
    rotary_dim = cache.shape[1]
    cos, sin = cache[positions].chunk(2, dim=-1)
    cos, sin = cos.unsqueeze(1).to(query.dtype), sin.unsqueeze(1).to(query.dtype)

    def rotate(x):
        rot, rest = x[..., :rotary_dim], x[..., rotary_dim:]
        if neox:
            x1, x2 = rot.chunk(2, dim=-1)
            rot = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
        else:
            x1, x2 = rot[..., 0::2], rot[..., 1::2]
            rot = torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).flatten(-2)
        return torch.cat([rot, rest], dim=-1)

    return rotate(query), rotate(key)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--out")
    args = p.parse_args()
    flush = Flush()
    results = []
    for label, t, qh, kh, d, rows, r, neox, dtype in ROWS:
        pos = torch.randint(0, rows, (t,), device="cuda", dtype=torch.int64)
        q = torch.randn(t, qh, d, device="cuda", dtype=dtype)
        k = torch.randn(t, kh, d, device="cuda", dtype=dtype)
        inv = 10000.0 ** (-torch.arange(0, r, 2, dtype=torch.float64) / r)
        f = torch.arange(rows, dtype=torch.float64)[:, None] * inv[None, :]
        cache = torch.cat([f.cos(), f.sin()], -1).float().cuda()
        op = tileops_torch.RotaryEmbeddingFwdOp(is_neox=neox)
        got = op(pos, q, k, cache)
        want = torch_rotary(pos, q.double(), k.double(), cache.double(), neox)
        err = max(float((g.double() - w).abs().max()) for g, w in zip(got, want))
        t_us, t_lat, _ = median_times(lambda: op(pos, q, k, cache), args.iters, flush)
        c_us, c_lat, c_names = median_times(lambda: torch_rotary(pos, q, k, cache, neox),
                                            args.iters, flush)
        moved = 2 * (q.numel() + k.numel()) * q.element_size() + t * (8 + r * 4)
        src = torch.empty(moved // 2, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        copy_us, _, _ = median_times(lambda: dst.copy_(src), args.iters, flush)
        row = dict(label=label, max_abs_error=err, ok=err < 3e-2, tileops_us=t_us,
                   torch_us=c_us, torch_latency_us=c_lat, torch_kernels=len(c_names),
                   copy_us=copy_us, of_copy=copy_us / t_us, vs_torch=c_lat / t_lat)
        results.append(row)
        print(f"{label:24s} err {err:.1e} tileops {t_us:8.1f} us | copy {copy_us:7.1f} us "
              f"({row['of_copy']:.2f} of copy) | torch eager {c_us:8.1f} us busy, {c_lat:8.1f} "
              f"latency, {len(c_names)} kernels | x{row['vs_torch']:.2f}", flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
