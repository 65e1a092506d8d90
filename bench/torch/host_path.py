#!/usr/bin/env python3
"""Host cost of one call through tileops_torch, beside torch eager, on a CUDA device (issue 9,
item 2). Each row: calls are made back to back on one row (4096 bf16 by default; the kernels finish
faster than the host enqueues them), timed with perf_counter over N calls; the median over R
rounds, the device synchronised between rounds. Rows separate the layers of a tileops call:

  torch.ops overload, positional    the boxed C++ kernel and torch's argument parsing
  torch.ops overload, keywords      + parameters passed by keyword, as the op classes pass them
  op class                          + the Python class (what users call)

    python3 bench/torch/host_path.py [--calls N] [--rounds R] [--out FILE.json]
        [--device cpu --width 64 --dtype float32]
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn.functional as F

import tileops_torch


def synchronize():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def per_call_us(fn, calls, rounds):
    for _ in range(200):
        fn()
    synchronize()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
        synchronize()
    return statistics.median(samples)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--out")
    p.add_argument("--device", default="cuda",
                   help="cpu times the binding's layers without a launch (the kernels then run "
                        "on the host, inside the figures)")
    p.add_argument("--width", type=int, default=4096,
                   help="the row's width (on the CPU a narrow row keeps the kernel out of the way)")
    p.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    args = p.parse_args()
    n, dt = args.width, getattr(torch, args.dtype)
    x = torch.randn(1, n, device=args.device, dtype=dt)
    w = torch.randn(n, device=args.device, dtype=dt)
    y = torch.randn(1, n, device=args.device, dtype=dt)
    rms = tileops_torch.RMSNormFwdOp(normalized_shape=[n], eps=1e-6)
    add = tileops_torch.AddFwdOp()
    rms_overload = torch.ops.tileops.rms_norm_fwd.default
    add_overload = torch.ops.tileops.add_fwd.default
    rows = [
        ("torch eager: x + y", lambda: x + y),
        ("torch eager: F.rms_norm", lambda: F.rms_norm(x, (n,), w, 1e-6)),
        ("torch.ops.aten.add.Tensor (overload object)", lambda: torch.ops.aten.add.Tensor(x, y)),
        ("tileops AddFwdOp: overload, positional", lambda: add_overload(x, y)),
        ("tileops AddFwdOp: op class", lambda: add(x, y)),
        ("tileops RMSNormFwdOp: overload, positional", lambda: rms_overload(x, w, [n], 1e-6)),
        ("tileops RMSNormFwdOp: overload, keywords",
         lambda: rms_overload(x, w, normalized_shape=[n], eps=1e-6, target=None)),
        ("tileops RMSNormFwdOp: op class", lambda: rms(x, w)),
    ]
    results = []
    for label, fn in rows:
        us = per_call_us(fn, args.calls, args.rounds)
        results.append({"row": label, "us_per_call": us})
        print(f"{label:48s} {us:6.2f} us", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            name = torch.cuda.get_device_name(0) if args.device == "cuda" else args.device
            json.dump({"device": name, "torch": torch.__version__,
                       "calls": args.calls, "rounds": args.rounds, "rows": results}, f, indent=1)


if __name__ == "__main__":
    main()
