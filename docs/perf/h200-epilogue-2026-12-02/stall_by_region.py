#!/usr/bin/env python3
"""Warp stall samples of one kernel by region, from `ncu --page source --csv --print-source sass`
of a `--set full` report: instructions executed equally often run equally often per tile, so
grouping them by execution count separates the mainloop, the epilogue and the producer.

    python3 stall_by_region.py sass.csv
"""
import collections
import csv
import sys

lines = open(sys.argv[1]).read().split("\n")
rows = list(csv.reader(lines[1:]))
head = rows[0]
executed = head.index("Instructions Executed")
samples = head.index("Warp Stall Sampling (All Samples)")
reasons = [i for i, c in enumerate(head) if c.startswith("stall_") and "Not Issued" not in c]
by_count, width, why = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
for r in rows[1:]:
    if len(r) < len(head) or r[0] == "Kernel Name":
        break  # the next kernel's section
    try:
        e, s = int(r[executed].replace(",", "")), int(r[samples].replace(",", ""))
    except ValueError:
        continue
    by_count[e] += s
    width[e] += 1
    for i in reasons:
        why[e][head[i]] += int(r[i].replace(",", "") or 0)
total = sum(by_count.values())
for e, s in by_count.most_common(6):
    top = ", ".join(f"{k[6:]} {100 * v / max(1, sum(why[e].values())):.0f}%" for k, v in why[e].most_common(3))
    print(f"executed {e:>9}: {width[e]:>5} instructions, {100 * s / total:5.1f}% of samples ({top})")
