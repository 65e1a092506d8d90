"""Joins stream_sweep's launch lines with ncu's per-launch times: median kernel time per
(shape, variant), the copy's median, and the weight's share of the copy's bandwidth.
  python3 parse_sweep.py sweep.txt ncu.csv"""
import csv
import statistics
import sys
from collections import defaultdict

lines = [l.split() for l in open(sys.argv[1]) if l.startswith("launch ")]
times = []
with open(sys.argv[2]) as f:
    rows = [r for r in csv.reader(f) if len(r) > 5]
header = rows[0]
name_col, value_col, unit_col = header.index("Metric Name"), header.index("Metric Value"), header.index("Metric Unit")
for r in rows[1:]:
    if r[name_col] == "gpu__time_duration.sum":
        scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}[r[unit_col]]
        times.append(float(r[value_col].replace(",", "")) * scale)
pos = 0
table = defaultdict(dict)
status = {}
for l in lines:
    variant, shape, reps = l[1], l[2], int(l[4])
    if variant != "copy":
        pos += 1  # the checked launch
        status[(shape, variant)] = l[-1]
    table[shape][variant] = statistics.median(times[pos:pos + reps])
    pos += reps
assert pos == len(times), (pos, len(times))
variants = [v for v in next(iter(table.values())) if v != "copy"]
print("| shape | copy us | " + " | ".join(variants) + " | best vs copy |")
print("|---|---|" + "---|" * len(variants) + "---|")
for shape, t in table.items():
    best = min(t[v] for v in variants)
    cells = [f"{t[v]:.1f}" + ("" if status[(shape, v)] == "ok" else " FAIL") for v in variants]
    print(f"| {shape} | {t['copy']:.1f} | " + " | ".join(cells) + f" | {t['copy'] / best:.2f} |")
