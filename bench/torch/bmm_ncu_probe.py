#!/usr/bin/env python3
"""Batched GEMMs through tileops's BmmFwdOp and through torch.bmm, two calls each after a check
against torch, for ncu to profile the kernels of both side by side. Shapes are BxMxNxK, with a
trailing t for b given as [batch, n, k] (attention's q @ k^T). Run under ncu, for example:

    ncu --csv --page details --cache-control all --clock-control none \
        --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
        -k 'regex:gemm|nvjet|sm90|cutlass' python3 bench/torch/bmm_ncu_probe.py 64x512x512x128t

    python3 bench/torch/bmm_ncu_probe.py [--dtype bfloat16] BxMxNxK[t] ...
"""
import argparse
import sys

import torch

import tileops_torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shapes", nargs="+", help="BxMxNxK, t appended for b as [batch, n, k]")
    parser.add_argument("--dtype", default="bfloat16")
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    failed = False
    for shape in args.shapes:
        tb = shape.endswith("t")
        bsz, m, n, k = (int(v) for v in shape.rstrip("t").split("x"))
        a = torch.randn(bsz, m, k, device="cuda", dtype=dtype)
        b = torch.randn(*((bsz, n, k) if tb else (bsz, k, n)), device="cuda", dtype=dtype)
        op = tileops_torch.BmmFwdOp(trans_b=tb)

        def theirs():
            return torch.bmm(a, b.transpose(1, 2) if tb else b)
        ref = theirs().float()
        got = op(a, b).float()
        err = ((got - ref).abs().max() / ref.abs().max()).item()
        ok = err < 2e-2
        failed |= not ok
        print(f"{shape}: max error / max |ref| {err:.2e} {'ok' if ok else 'WRONG'}; "
              f"{op.kernel_config()}", flush=True)
        for _ in range(2):
            op(a, b)
            theirs()
        torch.cuda.synchronize()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
