#!/usr/bin/env python3
"""Compiles gemm_sm90_ws.cu with nvcc for sm_90a in a set of its variants (tile shapes, layouts,
clusters, gated and swapped forms) and prints what ptxas reports about spills, one line a variant:
a change that makes ptxas spill the accumulators slows the main loop of every call the variant
serves, and the NVRTC compile test does not show it. Needs nvcc (the CUDA toolkit), not a GPU.

    python3 scripts/dev/gemm_spills.py [--nvcc PATH] [--jobs N]

Exits 1 when any variant spills.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "src", "kernels", "cuda")
SOURCE = os.path.join(KERNELS, "gemm", "gemm_sm90_ws.cu")


def prelude(bm, bn, bk, stages, a_k_major=True, b_k_major=True, gated=-1, cluster_m=1,
            cluster_n=1, swapped=False, split_in_cluster=None):
    """The constants the host's KernelSpec puts before the source (gemm_sm90_ws_cuda.cpp,
    gemm_swap_cuda.cpp), for bf16."""
    b = lambda v: "true" if v else "false"
    if split_in_cluster is None:
        split_in_cluster = swapped
    epilogue = 32768 if swapped else 16384
    return "\n".join([
        '#include "device/numeric.cuh"',
        "using T = tileops::dev::bf16;",
        f"constexpr int BM = {bm}; constexpr int BN = {bn}; constexpr int BK = {bk};",
        f"constexpr int STAGES = {stages}; constexpr int GROUP_M = 8;",
        f"constexpr bool A_K_MAJOR = {b(a_k_major)}; constexpr bool B_K_MAJOR = {b(b_k_major)};",
        f"constexpr int GATED_ACT = {gated};",
        f"constexpr int CLUSTER_M = {cluster_m}; constexpr int CLUSTER_N = {cluster_n};",
        f"constexpr int EPILOGUE_BYTES = {epilogue};",
        f"constexpr bool SWAP_AB = {b(swapped)}; constexpr bool SPLIT_IN_CLUSTER = {b(split_in_cluster)};",
        '#line 1 "gemm_sm90_ws.cu"',
        "",
    ])


def variants():
    tiles = [(128, 256, 64, 4), (128, 128, 64, 6), (64, 256, 64, 5), (64, 128, 64, 8),
             (64, 64, 64, 12), (64, 32, 64, 16), (128, 64, 64, 8), (64, 32, 128, 8),
             (64, 64, 128, 6), (64, 128, 128, 4), (128, 64, 128, 4)]
    for t in tiles:
        yield "x".join(map(str, t[:3])), prelude(*t)
    yield "128x256 cluster M", prelude(128, 256, 64, 4, cluster_m=2)
    yield "128x128 cluster M", prelude(128, 128, 64, 6, cluster_m=2)
    yield "64x32 cluster N", prelude(64, 32, 64, 16, cluster_n=2)
    yield "64x32x128 cluster N", prelude(64, 32, 128, 8, cluster_n=2)
    yield "64x64x128 split in cluster", prelude(64, 64, 128, 6, split_in_cluster=True)
    yield "64x32x128 split in cluster", prelude(64, 32, 128, 8, split_in_cluster=True)
    yield "128x256 b [k, n]", prelude(128, 256, 64, 4, b_k_major=False)
    yield "128x64 a [k, m] b [k, n]", prelude(128, 64, 64, 8, a_k_major=False, b_k_major=False)
    yield "128x64 b [k, n]", prelude(128, 64, 64, 8, b_k_major=False)
    yield "128x64 cluster N b [k, n]", prelude(128, 64, 64, 8, b_k_major=False, cluster_n=2)
    yield "64x128 a [k, m] b [k, n]", prelude(64, 128, 64, 8, a_k_major=False, b_k_major=False)
    yield "64x128 gated", prelude(64, 128, 64, 8, gated=0)
    yield "128x256 gated", prelude(128, 256, 64, 4, gated=0)
    yield "swapped 128x128", prelude(128, 128, 64, 4, swapped=True)
    yield "swapped 64x128", prelude(64, 128, 64, 6, swapped=True)
    yield "swapped 128x16", prelude(128, 16, 64, 8, swapped=True)
    yield "swapped 128x128 gated", prelude(128, 128, 64, 4, gated=0, swapped=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nvcc", default="nvcc")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()
    source = open(SOURCE).read()
    with tempfile.TemporaryDirectory() as d:
        def compile_one(item):
            i, (name, pre) = item
            path = os.path.join(d, f"v{i}.cu")
            with open(path, "w") as f:
                f.write(pre + source)
            r = subprocess.run([args.nvcc, "-arch=sm_90a", "-cubin", "-I" + KERNELS, "-Xptxas",
                                "-v", "-o", os.devnull, path], capture_output=True, text=True)
            report = [l.strip() for l in (r.stdout + r.stderr).splitlines()
                      if "spill" in l or "error" in l]
            spills = r.returncode != 0 or any(
                "spill" in l and not l.endswith("0 bytes spill stores, 0 bytes spill loads")
                for l in report)
            return name, spills, "; ".join(report) or f"nvcc exit {r.returncode}"
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(compile_one, enumerate(variants())))
    for name, spills, report in results:
        print(f"{'SPILLS' if spills else 'ok    '} {name}: {report}")
    sys.exit(1 if any(s for _, s, _ in results) else 0)


if __name__ == "__main__":
    main()
