#!/usr/bin/env python3
"""Times the workloads of a `tileops bench --json` result with torch eager and torch.compile,
then writes the comparison: report.md (table), report.json and efficiency.svg (plot).

Torch is timed as tileops bench times tileops: device busy time from kernel records (here
torch.profiler's, through kernel_timing.py, with the L2 flushed before each call),
median of many calls. Where the profiler gives no usable records for a row, or with
--timer=events, CUDA events around each call are used instead (they include launch cost); each
row's torch_timer says which. Compare busy with busy: a tileops JSON timed with CUPTI (its rows'
`method`), or both with events (TILEOPS_BENCH_TIMER=events).

usage: torch_baseline.py TILEOPS_JSON OUT_DIR [--no-compile] [--timer=profiler|events]
Runs on the GPU machine, where torch is installed; tileops itself does not need torch.
"""
import json
import math
import statistics
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


def make(shape, dtype, positive=False):
    if shape is None:
        return None
    t = torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1
    if positive:
        t = t.abs() + 0.5
    return t.to(dtype)


def torch_program(case):
    """Returns (fn, args) computing the op with torch, or None when there is no equivalent."""
    op, p, shapes = case["op"], case["params"], case["input_shapes"]
    dt = DTYPES[case["dtype"]]
    if op == "RMSNormFwdOp":
        x, w = make(shapes[0], dt), make(shapes[1], dt)
        ns = tuple(p["normalized_shape"])
        return (lambda x, w: F.rms_norm(x, ns, w, p["eps"])), (x, w)
    if op == "LayerNormFwdOp":
        x, w, b = make(shapes[0], dt), make(shapes[1], dt), make(shapes[2], dt)
        ns = tuple(p["normalized_shape"])
        return (lambda x, w, b: F.layer_norm(x, ns, w, b, p["eps"])), (x, w, b)
    if op == "FusedAddRMSNormFwdOp":
        x, r, w = make(shapes[0], dt), make(shapes[1], dt), make(shapes[2], dt)
        n = shapes[0][-1]

        def fused(x, r, w):
            s = x + r
            return F.rms_norm(s, (n,), w, p["eps"]), s
        return fused, (x, r, w)
    if op == "BatchNormFwdOp":
        x = make(shapes[0], dt)
        rm, rv = make(shapes[1], torch.float32), make(shapes[2], torch.float32, positive=True)
        w = make(shapes[3], torch.float32) if shapes[3] else None
        b = make(shapes[4], torch.float32) if shapes[4] else None
        # torch's batch_norm wants weight/bias in x's dtype for half inputs on cuda only when
        # cudnn is not used; it accepts float32 statistics with half inputs.
        return (lambda x, rm, rv, w, b: F.batch_norm(x, rm, rv, w, b, p["training"], p["momentum"], p["eps"])), (x, rm, rv, w, b)
    if op in ("SoftmaxFwdOp", "LogSoftmaxFwdOp"):
        x = make(shapes[0], dt)
        dim = p["dim"] if p["dim"] is not None else -1
        fn = torch.softmax if op == "SoftmaxFwdOp" else torch.log_softmax
        return (lambda x: fn(x, dim)), (x,)
    if op == "AddFwdOp":
        a, b = make(shapes[0], dt), make(shapes[1], dt)
        alpha = p["alpha"]
        return (lambda a, b: torch.add(a, b, alpha=alpha)), (a, b)
    if op == "SiluAndMulFwdOp":
        x = make(shapes[0], dt)
        n = shapes[0][-1] // 2
        return (lambda x: F.silu(x[..., :n]) * x[..., n:]), (x,)
    if op == "RopeNeoxFwdOp":
        x = make(shapes[0], dt)
        d = shapes[0][-1]
        s = shapes[0][0] if p["layout"] == "1d" else shapes[0][1]
        inv = p["base"] ** (-torch.arange(0, d // 2, device="cuda", dtype=torch.float64) * 2 / d)
        ang = torch.arange(s, device="cuda", dtype=torch.float64)[:, None] * inv[None, :]
        cos, sin = ang.cos().to(dt), ang.sin().to(dt)  # cached by real models: not timed
        if p["layout"] == "2d":
            cos, sin = cos[None, :, None, :], sin[None, :, None, :]

        def rope(x, cos, sin):
            x1, x2 = x[..., : d // 2], x[..., d // 2:]
            return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)
        return rope, (x, cos, sin)
    if op == "GemmFwdOp":
        a, b = make(shapes[0], dt), make(shapes[1], dt)
        ta, tb = p["trans_a"], p["trans_b"]
        return (lambda a, b: torch.matmul(a.t() if ta else a, b.t() if tb else b)), (a, b)
    if op == "BmmFwdOp":
        a, b = make(shapes[0], dt), make(shapes[1], dt)
        ta, tb = p["trans_a"], p["trans_b"]
        return (lambda a, b: torch.bmm(a.transpose(1, 2) if ta else a,
                                       b.transpose(1, 2) if tb else b)), (a, b)
    if op == "LinearFwdOp":
        x, w = make(shapes[0], dt), make(shapes[1], dt)
        b = make(shapes[2], dt) if shapes[2] else None
        r = make(shapes[3], dt) if shapes[3] else None
        if r is None:
            return (lambda x, w, b: F.linear(x, w, b)), (x, w, b)
        return (lambda x, w, b, r: F.linear(x, w, b) + r), (x, w, b, r)
    if op == "GatedLinearFwdOp":
        x, w = make(shapes[0], dt), make(shapes[1], dt)
        i = shapes[1][0] // 2
        act = {"silu": F.silu, "gelu": F.gelu,
               "gelu_tanh": lambda g: F.gelu(g, approximate="tanh")}[p["activation"]]

        def gated(x, w):
            h = F.linear(x, w)
            return act(h[..., :i]) * h[..., i:]
        return gated, (x, w)
    if op == "GatedMLPFwdOp":
        x, wgu, wd = make(shapes[0], dt), make(shapes[1], dt), make(shapes[2], dt)
        i = shapes[2][1]

        def mlp(x, wgu, wd):
            h = x @ wgu.t()
            return (F.silu(h[..., :i]) * h[..., i:]) @ wd.t()
        return mlp, (x, wgu, wd)
    return None


FLUSH = None


def time_fn_events(fn, args, iters=50, warmup=5):
    global FLUSH
    if FLUSH is None:
        FLUSH = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    with torch.no_grad():
        for _ in range(warmup):
            fn(*args)
        torch.cuda.synchronize()
        pairs = []
        for i in range(iters):
            FLUSH.fill_(i & 0xFF)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*args)
            end.record()
            pairs.append((start, end))
        torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1000.0 for s, e in pairs)


PROFILER_FLUSH = None


def time_fn(fn, args, timer, iters=50):
    """(busy us, how it was timed): kernel records unless timer == "events" or they fail."""
    global PROFILER_FLUSH
    if timer == "profiler":
        try:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from kernel_timing import Flush, median_times
            if PROFILER_FLUSH is None:
                PROFILER_FLUSH = Flush()
            with torch.no_grad():
                busy, _, _ = median_times(lambda: fn(*args), iters, PROFILER_FLUSH)
            return busy, "torch.profiler kernel records (busy)"
        except Exception as e:  # fall back, and say so in the row
            why = f"{type(e).__name__}: {e}"[:120]
            return time_fn_events(fn, args, iters), f"cuda events (profiler failed: {why})"
    return time_fn_events(fn, args, iters), "cuda events"


def svg_plot(rows, path):
    bars = [(f'{r["op"]} {r["label"]} {r["dtype"]}', r.get("efficiency_vs_copy") or 0.0) for r in rows]
    width, row_h, left = 980, 18, 430
    height = row_h * len(bars) + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="10" y="20" font-size="14">tileops on the H200: bandwidth as a fraction of a same-size device copy</text>']
    scale = (width - left - 60) / 1.2
    x90 = left + 0.9 * scale
    out.append(f'<line x1="{x90}" y1="30" x2="{x90}" y2="{height - 20}" stroke="#c00" stroke-dasharray="4"/>')
    out.append(f'<text x="{x90 + 3}" y="40" fill="#c00">90% target</text>')
    for i, (name, eff) in enumerate(bars):
        y = 50 + i * row_h
        colour = "#2a7" if eff >= 0.9 else "#d90"
        out.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{name}</text>')
        out.append(f'<rect x="{left}" y="{y + 2}" width="{max(eff, 0) * scale:.1f}" height="{row_h - 5}" fill="{colour}"/>')
        out.append(f'<text x="{left + max(eff, 0) * scale + 4:.1f}" y="{y + 12}">{eff * 100:.0f}%</text>')
    out.append("</svg>")
    Path(path).write_text("\n".join(out))


def main():
    src, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    use_compile = "--no-compile" not in sys.argv
    timer = next((a.split("=")[1] for a in sys.argv if a.startswith("--timer=")), "profiler")
    if timer not in ("profiler", "events"):
        sys.exit(f"torch_baseline: --timer takes profiler or events, got {timer!r}")
    import time
    deadline = time.time() + float(next((a.split("=")[1] for a in sys.argv if a.startswith("--compile-budget=")), 360))
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = json.loads(src.read_text())["results"]
    for r in rows:
        if r.get("status") != "ok":
            continue
        prog = torch_program(r)
        if prog is None:
            continue
        fn, args = prog
        r["torch_eager_us"], r["torch_timer"] = time_fn(fn, args, timer)
        # torch.compile is timed on the bfloat16 memory-bound rows (as the anchors are), within a
        # time budget: each compile costs seconds.
        if use_compile and r["dtype"] == "bfloat16" and r.get("copy_floor_us") and time.time() < deadline:
            try:
                torch._dynamo.reset()
                compiled = torch.compile(fn)
                r["torch_compile_us"], r["torch_compile_timer"] = time_fn(compiled, args, timer)
            except Exception as e:  # report, do not hide
                r["torch_compile_error"] = f"{type(e).__name__}: {e}"[:200]
        # tileops's busy time (CUPTI), or its event interval (older JSON, or events).
        tileops_us = r.get("busy_us", r["median_us"])
        for key in ("torch_eager_us", "torch_compile_us"):
            if key in r and tileops_us > 0:
                r[key.replace("_us", "_ratio")] = r[key] / tileops_us
    (out_dir / "report.json").write_text(json.dumps({"results": rows, "device": torch.cuda.get_device_name()}, indent=1))
    lines = ["| op | workload | dtype | tileops us | p10-p90 | copy floor us | TB/s | eff. vs copy | TFLOP/s | torch eager us | torch.compile us | eager / tileops | compile / tileops | served by |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda v, f="{:.2f}": (f.format(v) if isinstance(v, (int, float)) and not math.isnan(v) else "-")
    for r in rows:
        if r.get("status") != "ok":
            lines.append(f'| {r["op"]} | {r["label"]} | {r["dtype"]} | {r.get("status")} | | | | | | | | | | |')
            continue
        lines.append("| {} | {} | {} | {} | {}-{} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            r["op"], r["label"], r["dtype"], fmt(r["median_us"]), fmt(r["p10_us"]), fmt(r["p90_us"]),
            fmt(r.get("copy_floor_us")), fmt(r.get("tbs"), "{:.3f}"), fmt(r.get("efficiency_vs_copy"), "{:.0%}"),
            fmt(r.get("tflops"), "{:.1f}"), fmt(r.get("torch_eager_us")), fmt(r.get("torch_compile_us")),
            fmt(r.get("torch_eager_ratio")), fmt(r.get("torch_compile_ratio")), r.get("served_by", "")))
    (out_dir / "report.md").write_text("\n".join(lines) + "\n")
    svg_plot([r for r in rows if r.get("status") == "ok"], out_dir / "efficiency.svg")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
