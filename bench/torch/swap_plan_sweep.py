#!/usr/bin/env python3
"""Times cuts of the swapped-operand GEMM (gemm_swap_sm90: tile rows x K splits in a cluster)
beside the plan's own choice and torch (cuBLAS), on decode-shaped linear layers, each output
checked element by element against torch first (NaN-poisoned output block).

A cut is forced with TILEOPS_GEMM_SWAP_PLAN=<rows>x<splits>[t<tokens>], one process a cut (the
kernel reads it once); "plan" is the kernel's own cut, "dispatch" whatever dispatch takes unasked
(TILEOPS_GEMM_SWAP unset), "swap-off" dispatch without the swapped kernel (TILEOPS_GEMM_SWAP=0).
A plan may carry environment settings for its process after colons:
"dispatch:TILEOPS_GEMM_TAIL_BOXES=0" is dispatch with the tail boxes off.
The kernel's config names the cut it ran, with waves=N where its clusters walk the tiles in
several waves. Times are torch.profiler kernel records with the L2 flushed before each call
(kernel_timing.py), median of ITERS calls.

    python3 bench/torch/swap_plan_sweep.py [--plans plan,64x3,128x4,128x3t64,...] [--iters N]
        [--shapes 128x2112x7168,1x14336x4096g,...]
"""
import argparse
import json
import os
import subprocess
import sys

# (m, n, k, gated): a linear layer x [m, k] times w [n, k] (gated: w [2n, k], gate then up).
SHAPES = [(1, 13824, 5120, False), (1, 4096, 4096, False), (16, 4096, 7168, False),
          (1, 4096, 14336, False), (32, 14336, 4096, False), (1, 14336, 4096, True),
          (16, 14336, 4096, True), (1, 128256, 4096, False), (7, 1000, 4104, False)]
PLANS = ["plan", "128x1", "64x1", "64x2", "64x3", "64x4", "128x2", "128x3", "128x4"]


def parse_shapes(text):
    """'MxNxK' a linear layer, 'MxNxKg' a gated one, comma-separated."""
    shapes = []
    for item in text.split(","):
        gated = item.endswith("g")
        m, n, k = (int(v) for v in item.rstrip("g").split("x"))
        shapes.append((m, n, k, gated))
    return shapes


def one(plan, iters, shapes):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch
    import torch.nn.functional as F
    import tileops_torch
    from kernel_timing import Flush, median_times
    from output_check import elements_out_of_tolerance
    flush = Flush()
    for m, n, k, gated in shapes:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(2 * n if gated else n, k, device="cuda", dtype=torch.bfloat16) / k ** 0.5
        if gated:
            op = tileops_torch.GatedLinearFwdOp()

            def theirs(x=x, w=w):
                gate, up = F.linear(x, w).chunk(2, dim=-1)
                return F.silu(gate) * up
        else:
            op = tileops_torch.LinearFwdOp()

            def theirs(x=x, w=w):
                return F.linear(x, w)
        ref = theirs().float()
        bad = elements_out_of_tolerance(lambda: op(x, w), ref, (m, n))
        config = op.kernel_config()
        t, lat, names = median_times(lambda: op(x, w), iters, flush)
        c, _, _ = median_times(theirs, iters, flush)
        print(json.dumps(dict(m=m, n=n, k=k, gated=gated, plan=plan, config=config, bad=bad,
                              us=t, latency_us=lat, kernels=len(names), cublas_us=c,
                              weight_tbps=w.numel() * 2 / t / 1e6)), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plans", default=",".join(PLANS))
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--shapes", help="MxNxK[g],... (default: the decode set above)")
    p.add_argument("--out", default=os.environ.get("OUT", "."))
    p.add_argument("--one", help=argparse.SUPPRESS)
    args = p.parse_args()
    shapes = parse_shapes(args.shapes) if args.shapes else SHAPES
    if args.one:
        one(args.one, args.iters, shapes)
        return
    rows = []
    plans = args.plans.split(",")
    for plan in plans:
        env = dict(os.environ, TILEOPS_GEMM_SWAP="always")
        env.pop("TILEOPS_GEMM_SWAP_PLAN", None)
        cut, *settings = plan.split(":")
        env.update(setting.split("=", 1) for setting in settings)
        if cut == "dispatch":
            env.pop("TILEOPS_GEMM_SWAP")
        elif cut == "swap-off":
            env["TILEOPS_GEMM_SWAP"] = "0"
        elif cut != "plan":
            env["TILEOPS_GEMM_SWAP_PLAN"] = cut
        cmd = [sys.executable, __file__, "--one", plan, "--iters", str(args.iters)]
        if args.shapes:
            cmd += ["--shapes", args.shapes]
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        sys.stderr.write(r.stderr[-1500:])
        rows += [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    with open(os.path.join(args.out, "swap_plan_sweep.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("| m x n x k | cuBLAS us | " + " | ".join(plans) + " |")
    print("|---|---|" + "---|" * len(plans))
    for m, n, k, gated in shapes:
        mine = {r["plan"]: r for r in rows if (r["m"], r["n"], r["k"], r["gated"]) == (m, n, k, gated)}
        if not mine:
            continue
        cb = min(r["cublas_us"] for r in mine.values())
        cells = []
        for plan in plans:
            r = mine.get(plan)
            if r is None:
                cells.append("-")
                continue
            cfg = r["config"].replace("tile=", "").replace(" (cluster)", "")
            cells.append(f"{r['us']:.1f} [{cfg}]" + ("" if r["bad"] == 0 else f" BAD {r['bad']}"))
        print(f"| {m}x{n}x{k}{' gated' if gated else ''} | {cb:.1f} | " + " | ".join(cells) + " |")
    print("elements out of tolerance:", sum(r["bad"] for r in rows))


if __name__ == "__main__":
    main()
