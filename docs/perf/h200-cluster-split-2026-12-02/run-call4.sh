#!/usr/bin/env bash
# Fourth GPU call (the benchmark part of the third, whose bundle lacked the torch binding) of the thirteenth session: the swapped decode GEMM with its K splits in a
# cluster (partials through distributed shared memory, no workspace), tiles of 128 or 64 weight rows: its tests and the other
# GEMM tests, compute-sanitizer over the cluster-split test, the decode and mid rows with the
# swapped kernel forced on and off, and ncu beside cuBLAS. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
cp bench/torch/kernel_timing.py .gpu/ 2>/dev/null
for swap in always 0; do
  TILEOPS_GEMM_SWAP=$swap timeout 120 python3 bench/torch/gemm_bench.py --only small-m --iters 20 \
    --out "$out/bench-swap-$swap" > "$out/bench-swap-$swap.log" 2>&1
  echo "=== bench TILEOPS_GEMM_SWAP=$swap exit $? after $(( $(date +%s) - start )) s"; cat "$out/bench-swap-$swap.log"
done
TILEOPS_GEMM_SWAP=always timeout 150 ncu --csv --page details --cache-control all --clock-control none \
  --section SpeedOfLight --section LaunchStats \
  --metrics sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,dram__bytes_read.sum \
  -k 'regex:gemm|nvjet|splitK|memset' \
  python3 bench/torch/gemm_ncu_probe.py 1x4096x14336 1x4096x4096 16x4096x7168 > "$out/ncu.csv" 2> "$out/ncu.err"
echo "ncu exit $? after $(( $(date +%s) - start )) s"; grep -v '^"' "$out/ncu.csv" | head; tail -3 "$out/ncu.err"
