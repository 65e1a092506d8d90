#!/usr/bin/env python3
"""Summarises the SP lines a GEMM built with spans.patch prints (stdin). Lines are grouped into
calls (a gap of over 20 us between block entries starts a new call) and the last call of each
shape is summarised: the call's span (first block entry to last block end, on the globaltimer)
and, over its blocks, the median and extremes of each phase in microseconds.

    LD_LIBRARY_PATH=<lib built with the patch> tileops bench GemmFwdOp ... | python3 span_summary.py
"""
import collections
import statistics
import sys

by_shape = collections.defaultdict(list)
for line in sys.stdin:
    f = line.split()
    if not f or f[0] != "SP":
        continue
    shape = "x".join(f[1:4]) + f" splits {f[4]}"
    t = [int(v) for v in f[12:20]]
    by_shape[shape].append({"blk": int(f[6]), "sm": int(f[8]), "units": int(f[10]), "t": t})

PHASES = [("entry after call start", lambda b, s: b["t"][0] - s),
          ("barrier set-up", lambda b, s: b["t"][1] - b["t"][0]),
          ("to first load", lambda b, s: b["t"][2] - b["t"][1]),
          ("first load to first landed", lambda b, s: b["t"][4] - b["t"][2]),
          ("first to last landed", lambda b, s: b["t"][5] - b["t"][4]),
          ("last landed to MMAs done", lambda b, s: b["t"][6] - b["t"][5]),
          ("MMAs done to end", lambda b, s: b["t"][7] - b["t"][6]),
          ("end before call end", None)]

for shape, blocks in by_shape.items():
    blocks.sort(key=lambda b: b["t"][0])
    calls, current = [], [blocks[0]]
    for b in blocks[1:]:
        if b["t"][0] - current[-1]["t"][0] > 20000:
            calls.append(current)
            current = []
        current.append(b)
    calls.append(current)
    call = calls[-1]
    start = min(b["t"][0] for b in call)
    end = max(b["t"][7] for b in call)
    units = collections.Counter(b["units"] for b in call)
    print(f"{shape}: {len(calls)} calls; last call {len(call)} blocks, span {(end - start) / 1e3:.2f} us, "
          f"units a block {dict(sorted(units.items()))}")
    for name, fn in PHASES:
        vals = [(end - b["t"][7]) if fn is None else fn(b, start) for b in call]
        vals = sorted(v / 1e3 for v in vals)
        print(f"  {name:28s} min {vals[0]:6.2f}  median {statistics.median(vals):6.2f}  "
              f"max {vals[-1]:6.2f} us")
