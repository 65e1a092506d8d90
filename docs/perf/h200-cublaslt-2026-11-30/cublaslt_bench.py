# Scratch: GEMM calls the tensor-core kernels refuse (float32; 16-bit with odd leading dims),
# tileops (cuBLASLt, or the CUDA-core fallback under TILEOPS_CUBLASLT=0) beside torch, timed
# with torch.profiler kernel records and a flushed L2 (bench/torch/gemm_bench.py's method).
import os, sys, json, math
sys.path.insert(0, "bench/torch")
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
from gemm_bench import median_times, rel_error, FLUSH_BYTES
import tileops_torch

flush = torch.empty(FLUSH_BYTES // 4, device="cuda")
rows = [(torch.float32, 4096, 4096, 4096, False, True), (torch.float32, 1000, 520, 136, False, False),
        (torch.float32, 1, 4096, 4096, False, True), (torch.bfloat16, 64, 512, 100, False, True),
        (torch.bfloat16, 1001, 517, 1003, False, False), (torch.float16, 4095, 4095, 4095, False, True)]
mode = "fallback" if os.environ.get("TILEOPS_CUBLASLT") == "0" else "cublaslt"
out = []
for dtype, m, n, k, ta, tb in rows:
    a = torch.randn((k, m) if ta else (m, k), device="cuda", dtype=dtype)
    b = torch.randn((n, k) if tb else (k, n), device="cuda", dtype=dtype) / math.sqrt(k)
    ref = lambda: (a.t() if ta else a) @ (b.t() if tb else b)
    op = tileops_torch.GemmFwdOp(trans_a=ta, trans_b=tb)
    err = rel_error(op(a, b), ref())
    it = 20 if m * n * k < 2**34 else 8
    tb_, tl, names = median_times(lambda: op(a, b), it, flush)
    cb, cl, cnames = median_times(ref, it, flush)
    f = 2.0 * m * n * k
    r = dict(mode=mode, dtype=str(dtype), m=m, n=n, k=k, err=err, tileops_us=tb_, torch_us=cb,
             tileops_tflops=f / tb_ / 1e6, torch_tflops=f / cb / 1e6, speed_vs_torch=cb / tb_,
             tileops_kernels=names, torch_kernels=cnames)
    out.append(r)
    print(f"{mode:8} {str(dtype):15} {m}x{n}x{k} err {err:.1e} tileops {tb_:9.1f} us ({f/tb_/1e6:6.1f} TF/s) "
          f"torch {cb:9.1f} us | x{cb/tb_:.2f} | {names[:2]}", flush=True)
json.dump(out, open(os.path.join(os.environ.get("OUT", "."), f"cublaslt-{mode}.json"), "w"), indent=1)
