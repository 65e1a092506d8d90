#!/usr/bin/env python3
"""Host cost of one call through tileops_torch, beside torch eager, on a CUDA device (issue 9,
item 2). Each row: calls are made back to back on one row (4096 bf16 by default; the kernels finish
faster than the host enqueues them), timed with perf_counter over N calls; the median over R
rounds, the device synchronised between rounds. Rows separate the layers of a tileops call:

  torch.ops overload, positional    the boxed C++ kernel and torch's argument parsing
  torch.ops overload, keywords      + parameters passed by keyword, as the op classes pass them
  op class, through torch.ops       + the Python class, the fast path off
  fast call alone                   the eager fast path's extension object, no class
  op class                          what users call: the class and the fast path

    python3 bench/torch/host_path.py [--calls N] [--rounds R] [--stat median|min]
        [--out FILE.json] [--device cpu --width 64 --dtype float32]

--stat min reports the fastest round instead of the median: on a shared machine whose load
comes and goes (the 2-core build machine), the fastest of many short rounds is what compares two
builds (e.g. --device cpu --calls 500 --rounds 300 --stat min).
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


def per_call_us(fn, calls, rounds, stat=statistics.median):
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
    return stat(samples)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--stat", choices=["median", "min"], default="median",
                   help="the median round, or the fastest (steadier on a loaded machine)")
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
    # The same classes with the eager fast path switched off (tileops_torch._fast_path).
    rms_slow = tileops_torch.RMSNormFwdOp(normalized_shape=[n], eps=1e-6)
    add_slow = tileops_torch.AddFwdOp()
    rms_slow._fast = add_slow._fast = None
    print(f"fast path: {tileops_torch.fast_path_status()}")
    rms_overload = torch.ops.tileops.rms_norm_fwd.default
    add_overload = torch.ops.tileops.add_fwd.default
    rows = [
        ("torch eager: x + y", lambda: x + y),
        ("torch eager: F.rms_norm", lambda: F.rms_norm(x, (n,), w, 1e-6)),
        ("torch.ops.aten.add.Tensor (overload object)", lambda: torch.ops.aten.add.Tensor(x, y)),
        ("tileops AddFwdOp: overload, positional", lambda: add_overload(x, y)),
        ("tileops AddFwdOp: op class, through torch.ops", lambda: add_slow(x, y)),
        ("tileops AddFwdOp: op class", lambda: add(x, y)),
        ("tileops RMSNormFwdOp: overload, positional", lambda: rms_overload(x, w, [n], 1e-6)),
        ("tileops RMSNormFwdOp: overload, keywords",
         lambda: rms_overload(x, w, normalized_shape=[n], eps=1e-6, target=None)),
        ("tileops RMSNormFwdOp: op class, through torch.ops", lambda: rms_slow(x, w)),
        *([("tileops RMSNormFwdOp: fast call alone", lambda: rms._fast(x, w))]
          if rms._fast is not None else []),
        ("tileops RMSNormFwdOp: op class", lambda: rms(x, w)),
    ]
    if rms._fast is not None:
        # Where the fast call's time goes: entering the extension (a call it declines at once,
        # for its arity), and the output's allocation through torch's allocator.
        rows += [
            ("  part: enter the extension and decline", lambda: rms._fast(x)),
            ("  part: torch.empty of the output", lambda: torch.empty_like(x)),
        ]
    if args.device == "cuda":
        # torch's default stream is the legacy one, which the driver treats specially; the same
        # calls on a created stream.
        side = torch.cuda.Stream()

        def on_side(fn):
            def run():
                with torch.cuda.stream(side):
                    for _ in range(20):
                        fn()
            return run

        side_rows = [
            ("side stream: torch eager x + y (per call)", on_side(lambda: x + y)),
            ("side stream: tileops RMSNormFwdOp op class (per call)", on_side(lambda: rms(x, w))),
        ]
    else:
        side_rows = []
    stat = min if args.stat == "min" else statistics.median
    results = []
    for label, fn in rows:
        us = per_call_us(fn, args.calls, args.rounds, stat)
        results.append({"row": label, "us_per_call": us})
        print(f"{label:48s} {us:6.2f} us", flush=True)
    for label, fn in side_rows:  # 20 calls a sample, under one stream switch
        us = per_call_us(fn, max(1, args.calls // 20), args.rounds, stat) / 20
        results.append({"row": label, "us_per_call": us})
        print(f"{label:48s} {us:6.2f} us", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            name = torch.cuda.get_device_name(0) if args.device == "cuda" else args.device
            json.dump({"device": name, "torch": torch.__version__,
                       "fast_path": list(tileops_torch.fast_path_status()),
                       "calls": args.calls, "rounds": args.rounds, "stat": args.stat, "rows": results}, f, indent=1)


if __name__ == "__main__":
    main()
