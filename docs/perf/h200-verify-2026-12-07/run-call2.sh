#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried; .gpu/torch-old/python = the tileops_torch
# package of 4206bbb, before a torch call checked once and allocated straight from torch's
# allocator): the torch binding's suite on CUDA, the host cost of a call through the binding
# before and after (bench/torch/host_path.py, alternating, fastest and median round), then the
# GEMM benchmark beside cuBLAS (bench/torch/gemm_bench.py). Prints as it goes; logs to $OUT.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
OUT=$out timeout 240 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "=== torch suite exit $? $(since)"; grep -E "passed|failed|error" "$out/torch-suite.txt" | tail -3
for round in 1 2; do
  for tree in old new; do
    pkg=$PWD/.gpu/torch/python
    [ $tree = old ] && pkg=$PWD/.gpu/torch-old/python
    for stat in min median; do
      PYTHONPATH=$pkg:$PWD/.gpu timeout 60 python3 bench/torch/host_path.py --calls 500 \
        --rounds 200 --stat $stat --out "$out/host-$tree-$round-$stat.json" \
        > "$out/host-$tree-$round-$stat.txt" 2>&1
      echo "## $tree round $round $stat: $(grep -E 'x \+ y  |AddFwdOp: op class  |RMSNormFwdOp: op class  |fast call alone' \
        "$out/host-$tree-$round-$stat.txt" | awk '{print $(NF-1)}' | tr '\n' ' ')"
    done
  done
done
echo "=== host path $(since) (columns: torch x+y, Add class, fast call alone, RMSNorm class)"
timeout 280 python3 bench/torch/gemm_bench.py --iters 20 --out "$out/gemm" > "$out/gemm-bench.log" 2>&1
echo "=== gemm bench exit $? $(since)"
grep -E "x[0-9]\.[0-9]{3}|GatedMLP|mlp|roof" "$out/gemm-bench.log" | cut -c1-200
