#!/usr/bin/env python3
"""The one-block-a-row kernels' six configurations (cache depth x accesses a thread, which sizes
the block; row_tuning.hpp) forced one at a time through the tuning store, on given rows: what the
untuned choice of each shape should be. Each configuration runs `scripts/gpu/rows_sweep.py --tuned`
with a store (TILEOPS_TUNING_DIR/<board>.tsv) that names it for every op and shape, so every
figure is `tileops bench`'s own (CUPTI kernel records, L2 flushed, checked against the float64
reference first, the copy timed beside it). Prints one table, rows by op and shape, a column a
configuration; writes DIR/row-config-sweep.json.

    python3 scripts/gpu/row_config_sweep.py --shapes 1x4096,8x4096 [--ops RMSNormFwdOp,...]
        [--dtype bfloat16] [--iters N] [--out DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CONFIGS = ["cache=0/per_thread=1", "cache=0/per_thread=2", "cache=0/per_thread=4",
           "cache=4/per_thread=1", "cache=4/per_thread=2", "cache=4/per_thread=4"]
# The tuner of each op's one-block-a-row kernel.
TUNERS = {"RMSNormFwdOp": "rms_norm_cuda", "LayerNormFwdOp": "layer_norm_cuda",
          "FusedAddRMSNormFwdOp": "fused_add_rms_norm_cuda", "SoftmaxFwdOp": "softmax_cuda",
          "LogSoftmaxFwdOp": "log_softmax_cuda"}
PACK = {"bfloat16": 8, "float16": 8, "float32": 4}


def board():
    name = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                          capture_output=True, text=True).stdout.splitlines()[0].strip()
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", required=True)
    p.add_argument("--ops", default="RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp,SoftmaxFwdOp")
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--out", default=os.environ.get("OUT", "."))
    args = p.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    ops = args.ops.split(",")
    results = {}
    for config in CONFIGS:
        with tempfile.TemporaryDirectory() as store, tempfile.TemporaryDirectory() as out:
            with open(os.path.join(store, board() + ".tsv"), "w") as f:
                for op in ops:
                    for rows, n in shapes:
                        # Rows off the pack run the scalar kernel (vec=1); name both.
                        for vec in {PACK[args.dtype], 1}:
                            f.write(f"{TUNERS[op]}\t{args.dtype} rows={rows} n={n} vec={vec}\t"
                                    f"{config}\n")
            env = dict(os.environ, TILEOPS_TUNING_DIR=store)
            r = subprocess.run([sys.executable, os.path.join(here, "rows_sweep.py"), "--tuned",
                                "--ops", args.ops, "--shapes", args.shapes, "--dtype", args.dtype,
                                "--iters", str(args.iters), "--out", out],
                               env=env, capture_output=True, text=True)
            sys.stderr.write(r.stderr[-1000:])
            path = os.path.join(out, "rows-sweep.json")
            for row in json.load(open(path)) if os.path.exists(path) else []:
                results.setdefault((row["op"], row["rows"], row["n"]), {})[config] = row
    with open(os.path.join(args.out, "row-config-sweep.json"), "w") as f:
        json.dump([dict(op=k[0], rows=k[1], n=k[2], by_config=v) for k, v in results.items()], f,
                  indent=1)
    print("| op | rows x n | copy us | " + " | ".join(CONFIGS) + " |")
    print("|---|---|---|" + "---|" * len(CONFIGS))
    for op in ops:
        for rows, n in shapes:
            by = results.get((op, rows, n), {})
            if not by:
                continue
            copy = min(r["copy_us"] for r in by.values() if "copy_us" in r)
            cells = []
            for c in CONFIGS:
                r = by.get(c)
                if r is None or "busy_us" not in r:
                    cells.append("failed" if r else "-")
                    continue
                served = "" if r["config"].startswith(c) else f" [{r['served_by']} {r['config']}]"
                cells.append(f"{r['busy_us']:.2f}{served}")
            print(f"| {op} | {rows}x{n} | {copy:.2f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
