#!/usr/bin/env python3
"""Does a flush evict the L2? Times a read-only kernel over a buffer (torch.sum of a bf16 tensor,
which reads each byte once) after each flush kind, as kernel_timing.py times everything, and
prints the implied read bandwidth. A flush that evicts cannot be followed by a read faster than
the DRAM allows (the H200's datasheet peak is 4.8 TB/s); a faster read says the buffer was still
in the L2. Run it beside `ncu --cache-control all` of the same reads for the ground truth.

    python3 bench/torch/l2_flush_check.py [--iters N]
    ncu --cache-control all --metrics gpu__time_duration.sum,dram__bytes_read.sum \
        -k regex:reduce python3 bench/torch/l2_flush_check.py --plain
"""
import argparse
import statistics

import torch

from kernel_timing import FLUSH_BYTES, kernel_samples


SIZES_MIB = (32, 96, 135)  # decode weights under the L2's size and over it


class Variant:
    """One way of evicting the L2 before a timed call; `marks` names the flush's own kernels."""

    def __init__(self, name, steps, marks):
        self.name, self.steps, self.marks = name, steps, marks

    def run(self):
        for step in self.steps:
            step()

    def is_flush(self, name, duration_ns):
        name = name.lower()
        # The flushes take 120-250 us; every timed read, under 100.
        return duration_ns > 100_000 and any(m in name for m in self.marks)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--plain", action="store_true",
                        help="only the reads, three of each size, for ncu to time")
    args = parser.parse_args()
    if args.plain:
        for mib in SIZES_MIB:
            w = torch.randn(mib << 19, dtype=torch.bfloat16, device="cuda")
            for _ in range(3):
                torch.sum(w, dim=0, dtype=torch.float32)
            torch.cuda.synchronize()
            del w
        return
    words = FLUSH_BYTES // 4
    write_buf = torch.empty(words, dtype=torch.float32, device="cuda")
    zeros = torch.zeros(words, dtype=torch.float32, device="cuda")
    noise = torch.randn(words, dtype=torch.float32, device="cuda")
    sink = torch.empty((), dtype=torch.float32, device="cuda")
    variants = [
        Variant("write 512 MiB (dirty)", [lambda: write_buf.fill_(1.0)], ["fill"]),
        Variant("write, then sum 512 MiB of zeros (kernel_timing clean)",
                [lambda: write_buf.fill_(1.0), lambda: torch.sum(zeros, dim=0, out=sink)],
                ["fill", "reduce"]),
        Variant("write, then sum 512 MiB of noise",
                [lambda: write_buf.fill_(1.0), lambda: torch.sum(noise, dim=0, out=sink)],
                ["fill", "reduce"]),
        Variant("sum 512 MiB of noise only", [lambda: torch.sum(noise, dim=0, out=sink)],
                ["reduce"]),
        Variant("write 512 MiB of noise (copy), then sum it",
                [lambda: write_buf.copy_(noise), lambda: torch.sum(write_buf, dim=0, out=sink)],
                ["copy", "reduce"]),
    ]
    print("| read of | flush | median us | implied TB/s |")
    print("|---|---|---|---|")
    for mib in SIZES_MIB:
        w = torch.randn(mib << 19, dtype=torch.bfloat16, device="cuda")
        out = torch.empty((), dtype=torch.float32, device="cuda")

        def read():
            torch.sum(w, dim=0, dtype=torch.float32, out=out)

        for v in variants:
            s = kernel_samples(read, args.iters, v)
            # A reduction over many blocks may add a small second kernel; the read is the longest.
            us = statistics.median(max(x[3]) for x in s if x[3])
            print(f"| {mib} MiB | {v.name} | {us:.1f} | {w.numel() * 2 / us / 1e6:.2f} |", flush=True)
        del w


if __name__ == "__main__":
    main()
