#!/usr/bin/env python3
"""Summarises the TL lines a GEMM built with timeline.patch prints (stdin): per call shape and
sampled block, when the producer issued its loads ('E', after each `empty` wait) and when the
first consumer saw each stage land ('F'), finished its MMAs ('L'), counted in ('A' last, 'a' not),
summed the partials ('R'), stored ('S') and ended ('X'), in SM cycles since the block began; and
the spread of the blocks' starts on the globaltimer. Every call of a process prints; each block's
events are taken from its last call.

    LD_LIBRARY_PATH=<lib built with the patch> tileops bench GemmFwdOp ... | python3 timeline_summary.py
"""
import collections
import statistics
import sys

starts = collections.defaultdict(dict)   # shape -> block -> globaltimer start (last call)
events = collections.defaultdict(dict)   # (shape, block, role) -> {index: (what, cycles)}
for line in sys.stdin:
    f = line.split()
    if not f or f[0] != "TL":
        continue
    shape, block = tuple(f[1:5]), int(f[6])
    if f[7] == "sm":
        role = f[9]
        starts[shape][block] = int(f[11])
        events[(shape, block, role)] = {}
    else:
        events[(shape, block, f[7])][int(f[9])] = (f[8], int(f[10]))

for shape, blocks in starts.items():
    first = min(blocks.values())
    print(f"m n k splits = {' '.join(shape)}: {len(blocks)} sampled blocks, starts spread "
          f"{(max(blocks.values()) - first) / 1e3:.2f} us")
    for block in sorted(blocks):
        line = [f"  blk {block:4d} start +{(blocks[block] - first) / 1e3:5.2f} us"]
        for role in ("producer", "consumer"):
            ev = events.get((shape, block, role), {})
            seq = [ev[i] for i in sorted(ev)]
            if not seq:
                continue
            loads = [c for w, c in seq if w == "E"]
            lands = [c for w, c in seq if w == "F"]
            rest = " ".join(f"{w}{c}" for w, c in seq if w not in "EF")
            if loads:
                line.append(f"E x{len(loads)} {loads[0]}..{loads[-1]}")
            if lands:
                gaps = [b - a for a, b in zip(lands, lands[1:])]
                line.append(f"F x{len(lands)} first {lands[0]} last {lands[-1]}"
                            + (f" gap median {statistics.median(gaps):.0f}" if gaps else ""))
            if rest:
                line.append(rest)
        print(" | ".join(line))
