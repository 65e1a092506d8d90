#!/usr/bin/env python3
"""Condenses an `ncu --csv --page details` file to one line per profiled kernel: its name and the
metrics named on the command line (substrings of ncu's metric names), in that order.

    python3 scripts/gpu/ncu_summary.py FILE.csv "Duration" "DRAM Throughput" ...
"""
import csv
import sys


def short(metric):
    """A stall-reason metric by its reason alone."""
    return metric.replace("smsp__average_warps_issue_stalled_", "stall:").replace(
        "_per_issue_active.ratio", "")


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    kernels = {}
    probe = ""
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if row and row[0].startswith("###"):
                probe = row[0][3:].strip()  # rows_ncu_probe.sh's marker: one process a probe
                continue
            if len(row) < 15 or not row[0].isdigit():
                continue  # headers, ncu's own messages
            key = (probe, row[0], row[4])
            metrics = kernels.setdefault(key, {})
            metrics[row[12]] = f"{row[14]} {row[13]}".strip()
    for (probe, kid, name), metrics in kernels.items():
        cells = []
        for w in wanted:
            hits = [f"{short(k)}={v}" for k, v in metrics.items() if w.lower() in k.lower()]
            cells.extend(hits)
        print(f"{probe} [{kid}] {name[:50]}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
