#!/usr/bin/env python3
"""One bf16 GEMM through tileops (gemm_sm90_ws) and through torch.matmul (cuBLAS), each called
three times, for ncu to compare the two kernels' pipe use, stalls and clocks:

    ncu -k regex:'gemm_sm90_ws|nvjet|sm90_xmma' --launch-skip 2 --launch-count 2 \
        --section SpeedOfLight --section WarpStateStats python3 ncu_gemm.py M N K
"""
import sys

import torch
import tileops_torch

m, n, k = (int(v) for v in sys.argv[1:4])
a = torch.randn(m, k, dtype=torch.bfloat16, device="cuda")
b = torch.randn(n, k, dtype=torch.bfloat16, device="cuda")
op = tileops_torch.GemmFwdOp(trans_b=True)
ref = torch.matmul(a, b.t())
for _ in range(3):
    y = op(a, b)
for _ in range(3):
    torch.matmul(a, b.t())
torch.cuda.synchronize()
err = ((y.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
print(f"{m}x{n}x{k}: max error / max |ref| = {err:.2e}")
sys.exit(0 if err < 2e-2 else 1)
