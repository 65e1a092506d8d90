#!/usr/bin/env python3
"""GEMM and gated-MLP benchmark on the GPU: tileops beside torch (cuBLAS) in one run.

Times are device kernel times from torch.profiler (CUPTI) records, not events around a launch:
before every timed call a 512 MiB buffer is written, which evicts the L2, and the kernels between
two such writes make one sample; the median over the samples is reported, as busy time (the sum
of the kernels' durations) and as latency (first kernel start to last kernel end). Every row's
tileops output is checked against torch's before it is timed. The matrix roof is cuBLAS on 8192^3
bf16 measured in the same run (what `tileops calibrate` measures); decode rows also report the
bandwidth of a device copy of the weight's size.

The write leaves the L2 full of dirty lines, whose write-back the next kernel pays for as it
evicts them. A copy pays it too but leaves up to an L2 of its own writes dirty in turn, unpaid,
so beside a copy a kernel that only reads (a decode GEMV) is charged up to 50 MB more DRAM
traffic. Decode rows are therefore timed a second time after a clean flush (a read of a second
512 MiB buffer, no write, which leaves the L2 holding its clean lines), tileops, cuBLAS and the
copy alike: the `clean` columns. (Before 2026-12-04 the clean flush wrote the first buffer and
then read the second; bench/torch/l2_flush_check.py found that this left up to an L2 of the
timed call's data in place, so the clean columns of earlier reports are too fast. Reading the
written buffer back is no flush either: the L2 keeps lines the timed call reads every iteration
through a stream read once.)

    python3 bench/torch/gemm_bench.py [--out DIR] [--iters N] [--quick] [--seed S]
Writes DIR/gemm.json, DIR/gemm.md and DIR/gemm.png (when matplotlib is there).
"""
import argparse
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

import tileops_torch

from kernel_timing import FLUSH_BYTES, Flush, kernel_samples, median_times, per_kernel_medians  # noqa: E402,F401


def rel_error(got, want):
    got, want = got.double(), want.double()
    return float((got - want).norm() / want.norm().clamp_min(1e-30))


def gemm_rows(quick):
    rows = [
        ("large", 4096, 4096, 7168, False, True),
        ("large", 4096, 5120, 5120, False, True),
        ("large", 8192, 8192, 8192, False, True),
        ("large", 4096, 7168, 16384, False, True),
        ("large-nn", 4096, 4096, 4096, False, False),
        ("large-nn", 8192, 8192, 8192, False, False),
        ("large-tn", 4096, 4096, 4096, True, False),
        ("decode", 1, 4096, 4096, False, True),
        ("decode", 1, 13824, 5120, False, True),
        ("decode", 16, 4096, 7168, False, True),
        ("mid", 64, 4096, 7168, False, True),
        ("mid", 128, 4096, 7168, False, True),
        ("mid", 256, 4096, 7168, False, True),
        ("mid", 128, 2112, 7168, False, True),
        ("mid", 64, 2112, 7168, False, True),
        ("mid", 128, 7168, 2048, False, True),
        ("square", 1024, 1024, 1024, False, False),
    ]
    return rows[:3] + rows[7:9] if quick else rows


def make_operands(m, n, k, ta, tb, dtype):
    a = torch.randn((k, m) if ta else (m, k), device="cuda", dtype=dtype)
    b = torch.randn((n, k) if tb else (k, n), device="cuda", dtype=dtype) / math.sqrt(k)
    return a, b


def torch_gemm(a, b, ta, tb):
    return (a.t() if ta else a) @ (b.t() if tb else b)


def bench_gemm(rows, iters, flush, dtype, roof):
    results = []
    for group, m, n, k, ta, tb in rows:
        a, b = make_operands(m, n, k, ta, tb, dtype)
        op = tileops_torch.GemmFwdOp(trans_a=ta, trans_b=tb)
        err = rel_error(op(a, b), torch_gemm(a, b, ta, tb))
        n_iter = iters if m * n * k < 2**36 else max(10, iters // 3)
        t_busy, t_lat, t_names = median_times(lambda: op(a, b), n_iter, flush)
        c_busy, c_lat, c_names = median_times(lambda: torch_gemm(a, b, ta, tb), n_iter, flush)
        flops = 2.0 * m * n * k
        row = {
            "group": group, "m": m, "n": n, "k": k,
            "layout": ("t" if ta else "n") + ("t" if tb else "n"),
            "dtype": str(dtype).replace("torch.", ""), "rel_error": err, "ok": err < 2e-2,
            "tileops_us": t_busy, "tileops_latency_us": t_lat, "tileops_kernels": t_names,
            "cublas_us": c_busy, "cublas_latency_us": c_lat, "cublas_kernels": c_names,
            "tileops_tflops": flops / t_busy / 1e6, "cublas_tflops": flops / c_busy / 1e6,
            "ratio_vs_cublas": c_busy / t_busy,
        }
        if roof:
            row["roof_fraction"] = row["tileops_tflops"] / roof
        if m <= 16:
            weight = n * k * a.element_size()
            src = torch.empty(weight // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            copy_us, _, _ = median_times(lambda: dst.copy_(src), iters, flush)
            row["copy_us"] = copy_us
            row["copy_gbps"] = 2 * src.numel() / copy_us / 1e3
            row["weight_gbps"] = weight / t_busy / 1e3
            row["weight_vs_copy"] = row["weight_gbps"] / row["copy_gbps"]
            clean = Flush(clean=True)
            row["tileops_clean_us"], _, _ = median_times(lambda: op(a, b), n_iter, clean)
            row["cublas_clean_us"], _, _ = median_times(lambda: torch_gemm(a, b, ta, tb), n_iter, clean)
            row["copy_clean_us"], _, _ = median_times(lambda: dst.copy_(src), iters, clean)
            row["weight_vs_copy_clean"] = row["copy_clean_us"] / row["tileops_clean_us"]
            del clean
        results.append(row)
        print(f"{group:9s} {m:5d}x{n:5d}x{k:5d} {row['layout']} err {err:.1e} "
              f"tileops {t_busy:9.1f} us {row['tileops_tflops']:6.1f} TF/s | "
              f"cuBLAS {c_busy:9.1f} us {row['cublas_tflops']:6.1f} TF/s | "
              f"x{row['ratio_vs_cublas']:.3f}"
              + (f" | weight {row['weight_vs_copy']:.2f} of copy, clean L2 "
                 f"{row['tileops_clean_us']:.1f} us cuBLAS {row['cublas_clean_us']:.1f} "
                 f"copy {row['copy_clean_us']:.1f}: {row['weight_vs_copy_clean']:.2f}"
                 if "weight_vs_copy" in row else ""),
              flush=True)
    return results


def bench_mlp(iters, flush, dtype):
    results = []
    for label, m, h, i in [("llama-8b-decode", 1, 4096, 14336), ("llama-8b-m16", 16, 4096, 14336)]:
        x = torch.randn(m, h, device="cuda", dtype=dtype)
        wgu = torch.randn(2 * i, h, device="cuda", dtype=dtype) / math.sqrt(h)
        wd = torch.randn(h, i, device="cuda", dtype=dtype) / math.sqrt(i)
        op = tileops_torch.GatedMLPFwdOp()

        def torch_mlp():
            gate, up = F.linear(x, wgu).chunk(2, dim=-1)
            return F.linear(F.silu(gate) * up, wd)

        err = rel_error(op(x, wgu, wd), torch_mlp())
        t_busy, t_lat, t_names = median_times(lambda: op(x, wgu, wd), iters, flush)
        c_busy, c_lat, c_names = median_times(torch_mlp, iters, flush)
        t_each = per_kernel_medians(lambda: op(x, wgu, wd), iters, flush)
        c_each = per_kernel_medians(torch_mlp, iters, flush)
        row = {"label": label, "m": m, "h": h, "i": i, "rel_error": err, "ok": err < 2e-2,
               "tileops_kernel_us": t_each, "torch_kernel_us": c_each,
               "tileops_us": t_busy, "tileops_latency_us": t_lat, "tileops_kernels": t_names,
               "torch_us": c_busy, "torch_latency_us": c_lat, "torch_kernels": c_names,
               "speedup_latency": c_lat / t_lat}
        results.append(row)
        print(f"mlp {label:16s} err {err:.1e} tileops {t_busy:7.1f} us busy {t_lat:7.1f} us latency "
              f"({len(t_names)} launches) | torch {c_busy:7.1f} busy {c_lat:7.1f} latency "
              f"({len(c_names)} launches) | x{row['speedup_latency']:.2f}\n"
              f"    tileops kernels (us): {' '.join(f'{t:.1f}' for t in t_each)} | torch kernels (us): "
              f"{' '.join(f'{t:.1f}' for t in c_each)}", flush=True)
    return results


def fused_rows(dtype):
    """(label, tileops call, torch call, flops): the fused linear layers and the batched GEMMs."""
    def randn(*shape, scale=1.0):
        return torch.randn(*shape, device="cuda", dtype=dtype) * scale

    rows = []
    for m in (1, 16, 4096):
        x, w = randn(m, 4096), randn(4096, 4096, scale=4096 ** -0.5)
        bias, res = randn(4096), randn(m, 4096)
        lin = tileops_torch.LinearFwdOp()
        rows.append((f"linear+bias+residual {m}x4096x4096", lambda x=x, w=w, b=bias, r=res, op=lin: op(x, w, b, r),
                     lambda x=x, w=w, b=bias, r=res: F.linear(x, w, b) + r, 2.0 * m * 4096 * 4096))
    for m in (1, 16, 4096):
        x, w = randn(m, 4096), randn(2 * 14336, 4096, scale=4096 ** -0.5)
        gated = tileops_torch.GatedLinearFwdOp()

        def torch_gated(x=x, w=w):
            gate, up = F.linear(x, w).chunk(2, dim=-1)
            return F.silu(gate) * up
        rows.append((f"gate-up+silu {m}x14336x4096", lambda x=x, w=w, op=gated: op(x, w), torch_gated,
                     2.0 * m * 2 * 14336 * 4096))
    for label, bsz, m, n, k, tb in [("bmm heads q@kT", 64, 512, 512, 128, True),
                                    ("bmm heads p@v", 64, 512, 128, 512, False),
                                    ("bmm experts", 8, 256, 1024, 4096, False)]:
        a = randn(bsz, m, k)
        b = randn(bsz, n, k) if tb else randn(bsz, k, n)
        bmm = tileops_torch.BmmFwdOp(trans_b=tb)
        rows.append((f"{label} {bsz}x{m}x{n}x{k}", lambda a=a, b=b, op=bmm: op(a, b),
                     lambda a=a, b=b, tb=tb: torch.bmm(a, b.transpose(1, 2) if tb else b),
                     2.0 * bsz * m * n * k))
    return rows


def bench_fused(iters, flush, dtype):
    results = []
    for label, ours, theirs, flops in fused_rows(dtype):
        err = rel_error(ours(), theirs())
        t_busy, t_lat, t_names = median_times(ours, iters, flush)
        c_busy, c_lat, c_names = median_times(theirs, iters, flush)
        row = {"label": label, "rel_error": err, "ok": err < 2e-2,
               "tileops_us": t_busy, "tileops_latency_us": t_lat, "tileops_kernels": t_names,
               "torch_us": c_busy, "torch_latency_us": c_lat, "torch_kernels": c_names,
               "tileops_tflops": flops / t_busy / 1e6, "speedup_latency": c_lat / t_lat}
        results.append(row)
        print(f"{label:40s} err {err:.1e} tileops {t_busy:8.1f} us busy {t_lat:8.1f} latency "
              f"({len(t_names)}) {row['tileops_tflops']:6.1f} TF/s | torch {c_busy:8.1f} busy "
              f"{c_lat:8.1f} latency ({len(c_names)}) | x{row['speedup_latency']:.2f}", flush=True)
    return results


def write_report(out, gemm, mlp, roof, fused=(), seed=None):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "gemm.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                   "seed": seed, "matrix_roof_tflops": roof, "gemm": gemm, "mlp": mlp,
                   "fused": list(fused)},
                  f, indent=1)
    lines = [f"Matrix roof (cuBLAS bf16 8192^3, this run): {roof:.0f} TFLOP/s" if roof else "",
             "", "| group | M x N x K | layout | ok | tileops us | TFLOP/s | roof | cuBLAS us | "
             "cuBLAS TFLOP/s | tileops/cuBLAS speed | weight vs copy | clean L2: tileops / cuBLAS / "
             "copy us | clean L2: weight vs copy |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in gemm:
        lines.append(
            f"| {r['group']} | {r['m']}x{r['n']}x{r['k']} | {r['layout']} | {'yes' if r['ok'] else 'NO'} "
            f"| {r['tileops_us']:.1f} | {r['tileops_tflops']:.1f} | "
            f"{r.get('roof_fraction', float('nan')):.2f} | {r['cublas_us']:.1f} | "
            f"{r['cublas_tflops']:.1f} | {r['ratio_vs_cublas']:.3f} | "
            + (f"{r['weight_vs_copy']:.2f} | {r['tileops_clean_us']:.1f} / {r['cublas_clean_us']:.1f} / "
               f"{r['copy_clean_us']:.1f} | {r['weight_vs_copy_clean']:.2f} |"
               if "weight_vs_copy" in r else "- | - | - |"))
    lines += ["", "| MLP | ok | tileops busy us | tileops latency us | launches | torch busy us | "
              "torch latency us | launches | speed-up (latency) |", "|---|---|---|---|---|---|---|---|---|"]
    for r in mlp:
        lines.append(f"| {r['label']} | {'yes' if r['ok'] else 'NO'} | {r['tileops_us']:.1f} | "
                     f"{r['tileops_latency_us']:.1f} | {len(r['tileops_kernels'])} | {r['torch_us']:.1f} | "
                     f"{r['torch_latency_us']:.1f} | {len(r['torch_kernels'])} | {r['speedup_latency']:.2f} |")
    lines += ["", "| fused / batched | ok | tileops busy us | latency us | launches | TFLOP/s | "
              "torch busy us | torch latency us | launches | speed-up (latency) |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in fused:
        lines.append(f"| {r['label']} | {'yes' if r['ok'] else 'NO'} | {r['tileops_us']:.1f} | "
                     f"{r['tileops_latency_us']:.1f} | {len(r['tileops_kernels'])} | "
                     f"{r['tileops_tflops']:.1f} | {r['torch_us']:.1f} | {r['torch_latency_us']:.1f} | "
                     f"{len(r['torch_kernels'])} | {r['speedup_latency']:.2f} |")
    with open(os.path.join(out, "gemm.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        labels = [f"{r['m']}x{r['n']}x{r['k']} {r['layout']}" for r in gemm]
        fig, ax = plt.subplots(figsize=(12, 5))
        xs = range(len(gemm))
        ax.bar([x - 0.2 for x in xs], [r["ratio_vs_cublas"] for r in gemm], 0.4, label="tileops / cuBLAS speed")
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(0.95, color="r", lw=0.8, ls="--", label="0.95 target")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel("speed relative to cuBLAS (kernel time, cold L2)")
        ax.set_title(f"tileops GEMM on {torch.cuda.get_device_name(0)}, bf16")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "gemm.png"), dpi=110)
    except ImportError:
        pass


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.environ.get("OUT", "bench-out"))
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--seed", type=int, help="torch's seed for the inputs (default: a fresh one)")
    p.add_argument("--only", choices=["all", "gemm", "fused", "small-m", "decode"], default="all",
                   help="gemm: the GEMM and MLP rows; fused: the fused-linear and bmm rows; "
                        "small-m: the decode and mid rows and the MLP; decode: the decode rows")
    args = p.parse_args()
    if not torch.cuda.is_available():
        sys.exit("gemm_bench: torch sees no CUDA device")
    # Fresh inputs each run (every row is checked against torch on them); --seed repeats a run.
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    torch.manual_seed(seed)
    print(f"seed {seed}", flush=True)
    flush = Flush()
    a, b = make_operands(8192, 8192, 8192, False, True, torch.bfloat16)
    busy, _, _ = median_times(lambda: torch_gemm(a, b, False, True), 10, flush)
    roof = 2.0 * 8192**3 / busy / 1e6
    del a, b
    print(f"matrix roof (cuBLAS bf16 8192^3): {roof:.0f} TFLOP/s", flush=True)
    gemm = mlp = fused = []
    if args.only in ("all", "gemm", "small-m", "decode"):
        rows = gemm_rows(args.quick)
        if args.only != "all" and args.only != "gemm":
            groups = ("decode", "mid") if args.only == "small-m" else ("decode",)
            rows = [r for r in rows if r[0] in groups]
        gemm = bench_gemm(rows, args.iters, flush, torch.bfloat16, roof)
        if args.only != "decode":
            mlp = bench_mlp(args.iters, flush, torch.bfloat16)
    if args.only in ("all", "fused"):
        fused = bench_fused(args.iters, flush, torch.bfloat16)
    write_report(args.out, gemm, mlp, roof, fused, seed)
    bad = [r for r in gemm + mlp + fused if not r["ok"]]
    print(f"{len(gemm) + len(mlp) + len(fused) - len(bad)} rows checked ok, {len(bad)} wrong")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
