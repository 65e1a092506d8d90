#!/usr/bin/env python3
"""Memory-bound ops over shapes outside the manifest (issue 9, item 3): few and many rows, rows
narrower than a warp, widths that are not a multiple of the 16-byte pack, vocab-wide rows. Each
row is one `tileops bench OP --shape ...` (CUPTI kernel records, L2 flushed, the row checked
against the float64 reference first, the same-size device copy timed beside it), so every figure
is the CLI's own. Writes DIR/rows-sweep.json and DIR/rows-sweep.md.

    python3 scripts/gpu/rows_sweep.py [--tileops .gpu/bin/tileops] [--out DIR] [--iters N]
        [--dtype bfloat16] [--ops RMSNormFwdOp,...] [--shapes 4096x4096,...] [--tuned]

--tuned benches in tuned mode (`tileops bench --tuned`: the first call of a shape tunes it), so
the rows show what `tileops tune` would settle on beside the untuned rows of another run.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SHAPES = [
    (65536, 7), (65536, 32), (16384, 100), (4096, 31), (65536, 128),
    (4096, 1000), (2048, 4095), (4096, 4096), (4096, 4097),
    (1, 4096), (1, 4097), (1, 50257), (4, 128256), (8, 262144), (1, 262144),
]


def op_args(op, rows, n):
    x = f"x={rows}x{n}"
    if op == "RMSNormFwdOp":
        return ["--shape", x, "--shape", f"weight={n}", "--param", f"normalized_shape={n}"]
    if op == "LayerNormFwdOp":
        return ["--shape", x, "--shape", f"weight={n}", "--shape", f"bias={n}",
                "--param", f"normalized_shape={n}"]
    if op == "FusedAddRMSNormFwdOp":
        return ["--shape", x, "--shape", f"residual={rows}x{n}", "--shape", f"weight={n}"]
    if op in ("SoftmaxFwdOp", "LogSoftmaxFwdOp"):
        return ["--shape", x, "--param", "dim=-1"]
    if op == "SiluAndMulFwdOp":
        return ["--shape", f"x={rows}x{2 * n}"]
    raise ValueError(op)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tileops", default=".gpu/bin/tileops")
    p.add_argument("--out", default=os.environ.get("OUT", "rows-sweep-out"))
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--ops", default="RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp,"
                   "SoftmaxFwdOp,LogSoftmaxFwdOp,SiluAndMulFwdOp")
    p.add_argument("--shapes", default="", help="rows x n, comma-separated (default: all)")
    p.add_argument("--tuned", action="store_true")
    p.add_argument("--timeout", type=float, default=60)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows_out = []
    shapes = SHAPES
    if args.shapes:
        shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    for op in args.ops.split(","):
        for rows, n in shapes:
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
                path = f.name
            cmd = [args.tileops, "bench", op, *op_args(op, rows, n), "--dtype", args.dtype,
                   "--iters", str(args.iters), "--json", path] + (["--tuned"] if args.tuned else [])
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                res = json.load(open(path))["results"][0] if r.returncode == 0 else None
                err = "" if res else (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
            except (subprocess.TimeoutExpired, ValueError, KeyError, IndexError) as e:
                res, err = None, f"{type(e).__name__}"
            finally:
                os.unlink(path)
            row = {"op": op, "rows": rows, "n": n, "dtype": args.dtype}
            if res:
                row.update(busy_us=res["busy_us"], wall_us=res["wall_us"], copy_us=res["copy_floor_us"],
                           of_copy=res["efficiency_vs_copy"], served_by=res["served_by"],
                           config=res["config"], check=res["check"], method=res["method"])
                gap = row["busy_us"] - row["copy_us"]
                target = row["of_copy"] >= 0.9 if row["copy_us"] > 5 else gap <= 0.5
                row["meets"] = bool(target)
                print(f"{op:22s} {rows:6d}x{n:<7d} {row['busy_us']:9.2f} us (wall {row['wall_us']:7.2f})"
                      f"  copy {row['copy_us']:8.2f}"
                      f"  {row['of_copy']:6.1%}  {'ok  ' if target else 'MISS'} {row['served_by']} "
                      f"{row['config']}", flush=True)
            else:
                row["error"] = err
                print(f"{op:22s} {rows:6d}x{n:<7d} FAILED {err}", flush=True)
            rows_out.append(row)
    json.dump(rows_out, open(os.path.join(args.out, "rows-sweep.json"), "w"), indent=1)
    with open(os.path.join(args.out, "rows-sweep.md"), "w") as md:
        md.write("| op | rows x n | busy us | copy us | of copy | target | served by | config |\n")
        md.write("|---|---|---|---|---|---|---|---|\n")
        for r in rows_out:
            if "error" in r:
                md.write(f"| {r['op']} | {r['rows']}x{r['n']} | failed: {r['error']} | | | | | |\n")
                continue
            md.write(f"| {r['op']} | {r['rows']}x{r['n']} | {r['busy_us']:.2f} | {r['copy_us']:.2f} | "
                     f"{r['of_copy']:.0%} | {'met' if r['meets'] else 'missed'} | {r['served_by']} | "
                     f"{r['config']} |\n")
    failed = [r for r in rows_out if "error" in r]
    print(f"{len(rows_out) - len(failed)} rows ran, {len(failed)} failed, "
          f"{sum(1 for r in rows_out if r.get('meets'))} at target")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
