#!/usr/bin/env python3
"""Linear-layer shapes (x [m, k] times a weight [n, k]) through tileops and through torch's
F.linear, two calls each after a check against torch, for ncu to profile the kernels of both
side by side. Run under ncu, for example:

    ncu --csv --page details --cache-control all --clock-control none \
        --section SpeedOfLight --section WarpStateStats --section LaunchStats \
        --metrics sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg \
        -k 'regex:gemm|nvjet|splitK|sm90|cutlass|gemv' \
        python3 bench/torch/gemm_ncu_probe.py 1x4096x14336 128x2112x7168

    python3 bench/torch/gemm_ncu_probe.py [--dtype bfloat16] MxNxK ...
"""
import argparse
import sys

import torch
import torch.nn.functional as F

import tileops_torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shapes", nargs="+", help="MxNxK")
    parser.add_argument("--dtype", default="bfloat16")
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    op = tileops_torch.LinearFwdOp()
    failed = False
    for shape in args.shapes:
        m, n, k = (int(v) for v in shape.split("x"))
        x = torch.randn(m, k, device="cuda", dtype=dtype)
        w = torch.randn(n, k, device="cuda", dtype=dtype) / k**0.5
        want = F.linear(x, w).double()
        got = op(x, w).double()
        err = float((got - want).norm() / want.norm())
        ok = err < 2e-2
        failed |= not ok
        print(f"{shape}: rel error {err:.1e} {'ok' if ok else 'FAILED'}", flush=True)
        for _ in range(2):
            op(x, w)
            F.linear(x, w)
        torch.cuda.synchronize()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
