#!/usr/bin/env python3
"""Times gemm_sm90_ws tile shapes beside cuBLAS on a set of bf16 GEMMs, each output checked
against torch first (NaN-poisoned output block, every element).

A tile is forced through the tuning store (TILEOPS_TUNING_DIR/<board>.tsv, the file
`request_tune()` reads), one process per tile, since a process keeps the choice it read. Times
are torch.profiler kernel records with the L2 flushed before each call (gemm_bench.py), median
of ITERS calls. Shape sets: `large` (docs/perf/h200-multicast-2026-12-02), `small-mid`
(docs/perf/h200-epilogue-2026-12-02), `mid-m` and `attention` (BmmFwdOp;
docs/perf/h200-a-multicast-2026-12-02), `split` (docs/perf/h200-split-reduce-2026-12-05),
`deep-k` (docs/perf/h200-cluster-split-k-2026-12-06), `narrow-n` (docs/perf/h200-verify-2026-12-06),
`small-square` (docs/perf/h200-cluster-k-2026-12-08).
cuBLAS is torch.matmul, or torch.bmm for the batched rows.

    python3 bench/torch/gemm_tile_sweep.py [--shapes large|small-mid|mid-m|attention|split|deep-k|narrow-n|small-square] [--tiles T,T,...|all] [--out DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SHAPE_SETS = {
    "large": [(4096, 4096, 7168, False, True), (4096, 5120, 5120, False, True),
              (8192, 8192, 8192, False, True), (4096, 7168, 16384, False, True),
              (4096, 4096, 4096, False, False), (4096, 4096, 4096, True, False),
              (2048, 2048, 2048, False, True), (1000, 3000, 4096, False, True)],
    "small-mid": [(64, 4096, 7168, False, True), (128, 4096, 7168, False, True),
                  (256, 4096, 7168, False, True), (128, 2112, 7168, False, True),
                  (128, 7168, 2048, False, True), (1024, 1024, 1024, False, False),
                  (4096, 4096, 7168, False, True), (2048, 2048, 2048, False, True)],
    "mid-m": [(64, 4096, 7168, False, True), (128, 4096, 7168, False, True),
              (128, 2112, 7168, False, True), (96, 4096, 4096, False, True),
              (48, 4096, 4096, False, True), (64, 14336, 4096, False, True),
              (128, 14336, 4096, False, True), (128, 7168, 2048, False, True),
              (256, 4096, 7168, False, True)],
    # Rows the tile kernel splits K on (docs/perf/h200-split-reduce-2026-12-05).
    "split": [(128, 1024, 7168, False, True), (72, 1024, 7168, False, True),
              (64, 1024, 7168, False, True), (128, 1024, 14336, False, True),
              (64, 2112, 7168, False, True), (128, 1536, 7168, False, True),
              (128, 1024, 2048, False, True), (200, 136, 3000, False, True)],
    # A few tokens over about a thousand weight rows and deep K, where cuBLAS pairs 64x32 tiles
    # along N over two splits (docs/perf/h200-cluster-split-k-2026-12-06).
    "deep-k": [(128, 1024, 7168, False, True), (96, 1024, 7168, False, True),
               (72, 1024, 7168, False, True), (64, 1024, 7168, False, True),
               (128, 1024, 14336, False, True), (128, 1536, 7168, False, True),
               (128, 2112, 7168, False, True), (64, 2112, 7168, False, True),
               (32, 1024, 7168, False, True), (200, 1024, 4096, False, True)],
    # Many tokens over a few hundred weight rows and deep K: the fewest output tiles, so the
    # deepest splits, and the furthest behind cuBLAS after the split cap (0.75-0.83x,
    # docs/perf/h200-cluster-split-k-2026-12-06).
    "narrow-n": [(1024, 128, 14336, False, True), (512, 256, 7168, False, True),
                 (256, 512, 7168, False, True), (128, 512, 7168, False, True),
                 (128, 1536, 7168, False, True)],
    # Small squares, where cuBLAS ran 128x64 tiles in pairs along N on 1024^3 with b as [k, n]
    # (0.81x, docs/perf/h200-verify-2026-12-07).
    "small-square": [(1024, 1024, 1024, False, False), (1024, 1024, 1024, False, True),
                     (2048, 2048, 2048, False, False), (1536, 1536, 1536, False, False)],
    # BmmFwdOp (a sixth entry: the batch): attention-shaped q @ k^T and p @ v over 64 heads.
    "attention": [(512, 512, 128, False, True, 64), (512, 128, 512, False, False, 64),
                  (1024, 1024, 128, False, True, 32), (1024, 128, 1024, False, False, 32)],
}
TILES = ["128x256x64/s4", "128x256x64/s4/c2", "128x128x64/s6", "128x128x64/s6/c2"]
ALL_TILES = ["128x256x64/s4", "128x128x64/s6", "64x256x64/s5", "64x128x64/s8", "64x64x64/s12",
             "64x32x64/s16", "128x256x64/s4/c2", "128x128x64/s6/c2", "128x64x64/s8",
             "64x32x64/s16/n2", "64x32x128/s8", "64x64x128/s6", "64x32x128/s8/n2",
             "64x64x128/s6/k", "64x32x128/s8/k", "128x64x64/s8/n2"]


def spec(m, n, k, ta, tb, batch=None):
    return (f"bfloat16 m={m} n={n} k={k} {'t' if ta else 'n'}{'t' if tb else 'n'}"
            + (f" batch={batch}" if batch and batch > 1 else ""))


def bmm_operands(batch, m, n, k, tb, dtype):
    import torch
    a = torch.randn(batch, m, k, device="cuda", dtype=dtype)
    b = torch.randn(*((batch, n, k) if tb else (batch, k, n)), device="cuda", dtype=dtype)
    return a, b / k ** 0.5


def one_tile(tile, iters, shapes):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch
    board = torch.cuda.get_device_name(0)
    name = "".join(c if c.isalnum() or c in "._-" else "_" for c in board)
    with open(os.path.join(os.environ["TILEOPS_TUNING_DIR"], name + ".tsv"), "w") as f:
        for shape in shapes:
            f.write(f"gemm_sm90_ws\t{spec(*shape)}\t{tile}\n")
    import tileops_torch
    from gemm_bench import Flush, make_operands, median_times, torch_gemm
    from output_check import elements_out_of_tolerance
    flush = Flush()
    rows = []
    for m, n, k, ta, tb, *batched in shapes:
        batch = batched[0] if batched else None
        if batch is None:
            a, b = make_operands(m, n, k, ta, tb, torch.bfloat16)
            op = tileops_torch.GemmFwdOp(trans_a=ta, trans_b=tb)
            def theirs(a=a, b=b):
                return torch_gemm(a, b, ta, tb)
        else:
            a, b = bmm_operands(batch, m, n, k, tb, torch.bfloat16)
            op = tileops_torch.BmmFwdOp(trans_b=tb)
            def theirs(a=a, b=b):
                return torch.bmm(a, b.transpose(1, 2) if tb else b)
        ref = theirs().float()
        op(a, b)  # an op tunes on the device of a call it has made
        op.request_tune()
        bad = elements_out_of_tolerance(lambda: op(a, b), ref, (batch or 1, m, n))
        config = op.kernel_config()
        t, _, _ = median_times(lambda: op(a, b), iters, flush)
        c, _, _ = median_times(theirs, iters, flush)
        row = dict(m=m, n=n, k=k, batch=batch, layout=spec(m, n, k, ta, tb).split()[4], tile=tile,
                   config=config, bad=bad, us=t, cublas_us=c,
                   tflops=2 * (batch or 1) * m * n * k / t / 1e6,
                   vs_cublas=c / t)
        rows.append(row)
        print(json.dumps(row), flush=True)
        del a, b, ref


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tiles", default=",".join(TILES), help="comma-separated, or 'all'")
    p.add_argument("--shapes", choices=sorted(SHAPE_SETS), default="large")
    p.add_argument("--iters", type=int, default=int(os.environ.get("ITERS", "12")))
    p.add_argument("--out", default=os.environ.get("OUT", "."))
    p.add_argument("--one", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        one_tile(args.one, args.iters, SHAPE_SETS[args.shapes])
        return
    rows = []
    tiles = ALL_TILES if args.tiles == "all" else args.tiles.split(",")
    for tile in tiles:
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, TILEOPS_TUNING_DIR=d)
            r = subprocess.run([sys.executable, __file__, "--one", tile, "--iters", str(args.iters),
                                "--shapes", args.shapes],
                               env=env, capture_output=True, text=True)
            sys.stderr.write(r.stderr[-2000:])
            rows += [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
    with open(os.path.join(args.out, "tile_sweep.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("| M x N x K | layout | cuBLAS us | " + " | ".join(tiles) + " |")
    print("|---|---|---|" + "---|" * len(tiles))
    for m, n, k, ta, tb, *batched in SHAPE_SETS[args.shapes]:
        lay = spec(m, n, k, ta, tb).split()[4]
        batch = batched[0] if batched else None
        mine = {r["tile"]: r for r in rows
                if (r["m"], r["n"], r["k"], r["layout"], r["batch"]) == (m, n, k, lay, batch)}
        if not mine:
            continue
        cb = next(iter(mine.values()))["cublas_us"]
        cells = []
        for t in tiles:
            r = mine.get(t)
            cells.append("-" if r is None else
                         f"{r['us']:.1f} ({r['vs_cublas']:.3f}x)" + ("" if r["bad"] == 0 else f" BAD {r['bad']}")
                         + ("" if r["config"] == "tile=" + t else f" [{r['config']}]"))
        name = f"{batch}x{m}x{n}x{k}" if batch else f"{m}x{n}x{k}"
        print(f"| {name} | {lay} | {cb:.1f} | " + " | ".join(cells) + " |")
    print("elements out of tolerance:", sum(r["bad"] for r in rows))


if __name__ == "__main__":
    main()
