#!/usr/bin/env python3
"""The llama-8b down projection at decode (1x4096x14336, bf16) through tileops and through
torch's F.linear, three calls each, for ncu to name each kernel, its grid and its DRAM
throughput:
    ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
launch__grid_size,launch__block_size,launch__registers_per_thread --cache-control all \
--clock-control none python3 down_gemv_ncu.py
"""
import torch
import torch.nn.functional as F

import tileops_torch

x = torch.randn(1, 14336, device="cuda", dtype=torch.bfloat16)
w = torch.randn(4096, 14336, device="cuda", dtype=torch.bfloat16) / 120.0
op = tileops_torch.LinearFwdOp()
ref = F.linear(x, w)
err = float((op(x, w).double() - ref.double()).norm() / ref.double().norm())
assert err < 2e-2, err
for _ in range(3):
    op(x, w)
    F.linear(x, w)
torch.cuda.synchronize()
print(f"rel error {err:.1e}")
