#!/usr/bin/env bash
# Fifth GPU call (GPU machine, repository root, .gpu/ carried): main's tree as committed; the
# decode rows of the GEMM benchmark after the corrected clean flush (call 3 ran with stream-K,
# which took 1x13824x5120).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
timeout 120 python3 bench/torch/gemm_bench.py --only decode --iters 20 --out "$out" > "$out/bench-decode.log" 2>&1
echo "=== bench decode exit $?"; grep -E "^\| (decode|mid|llama)" "$out/gemm.md" | cut -c1-240
