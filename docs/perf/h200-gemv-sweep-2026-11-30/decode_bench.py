# Scratch: the decode rows of bench/torch/gemm_bench.py (tileops beside cuBLAS and a same-size
# copy, torch.profiler kernel records, L2 flushed), plus the gated MLP at decode and M = 16.
import os, sys, json
sys.path.insert(0, "bench/torch")
import torch
from gemm_bench import bench_gemm, bench_mlp, FLUSH_BYTES
flush = torch.empty(FLUSH_BYTES // 4, device="cuda")
rows = [("decode", 1, 4096, 4096, False, True), ("decode", 1, 13824, 5120, False, True),
        ("decode", 1, 4096, 14336, False, True), ("decode", 8, 6144, 4096, False, True),
        ("decode", 16, 4096, 7168, False, True), ("decode", 1, 128256, 4096, False, True)]
g = bench_gemm(rows, 30, flush, torch.bfloat16, None)
m = bench_mlp(30, flush, torch.bfloat16)
json.dump({"gemm": g, "mlp": m}, open(os.path.join(os.environ.get("OUT", "."), "decode.json"), "w"), indent=1)
