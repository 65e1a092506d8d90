#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried): the GEMM benchmark beside cuBLAS
# (bench/torch/gemm_bench.py, every row checked against torch first), then the host cost of a
# torch call before and after (median round) if time is left. Prints as it goes; logs to $OUT.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
timeout 400 python3 bench/torch/gemm_bench.py --iters 20 --out "$out/gemm" > "$out/gemm-bench.log" 2>&1
echo "=== gemm bench exit $? $(since)"
grep -E "x[0-9]\.[0-9]{3}|GatedMLP|mlp|roof" "$out/gemm-bench.log" | cut -c1-220
for tree in old new old new; do
  [ $(( $(date +%s) - start )) -lt 480 ] || break
  pkg=$PWD/.gpu/torch/python
  [ $tree = old ] && pkg=$PWD/.gpu/torch-old/python
  PYTHONPATH=$pkg:$PWD/.gpu timeout 40 python3 bench/torch/host_path.py --calls 2000 --rounds 15 \
    > "$out/host-median-$tree.txt" 2>&1
  echo "## $tree median: $(grep -E 'x \+ y  |AddFwdOp: op class  |fast call alone|RMSNormFwdOp: op class  ' \
    "$out/host-median-$tree.txt" | awk '{print $(NF-1)}' | tr '\n' ' ')"
done
echo "=== done $(since)"
