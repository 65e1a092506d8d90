#!/usr/bin/env bash
# First GPU call of the eighteenth session (GPU machine, repository root, .gpu/ carried):
# whether kernel_timing's flushes evict the L2 (torch.profiler and ncu's cache control side by
# side); the GEMM benchmark at dispatch's choice (the 128-deep narrow tiles' untuned choice had
# never been benchmarked); ncu over the rows that miss (decode, 128x2112x7168), tileops beside
# cuBLAS; the 64- against 128-deep sibling sweep. Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
since() { echo "after $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
timeout 120 python3 bench/torch/l2_flush_check.py --iters 15 > "$out/flush-check.md" 2>&1
echo "=== flush check exit $? $(since)"; cat "$out/flush-check.md"
timeout 90 ncu --csv --cache-control all --clock-control none \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum -k regex:reduce \
  python3 bench/torch/l2_flush_check.py --plain > "$work/ncu-flush.csv" 2>&1
echo "=== ncu reads exit $? $(since)"; grep -E '"(gpu__time|dram__bytes)' "$work/ncu-flush.csv" | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | head -20
timeout 240 python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$out" > "$out/bench-gemm.log" 2>&1
echo "=== bench gemm exit $? $(since)"; grep -E "^\| (mid|decode|large|square)" "$out/gemm.md" | cut -c1-240
metrics=("Duration" "DRAM Throughput" "Compute (SM) Throughput" "L2 Cache Throughput" "Memory Throughput" "Registers Per" "Achieved Occupancy" "Grid Size" "Block Size" "Cluster Size" "Warp Cycles Per Issued")
for swap in "" always; do
  TILEOPS_GEMM_SWAP=$swap timeout 120 ncu --csv --page details --cache-control all --clock-control none \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    -k 'regex:gemm|nvjet|sm90|cutlass|xmma|gemv|splitK' \
    python3 bench/torch/gemm_ncu_probe.py 1x4096x4096 1x13824x5120 16x4096x7168 128x2112x7168 > "$work/ncu-gemm$swap.csv" 2> "$work/ncu-gemm$swap.err"
  echo "=== ncu gemm (swap '$swap') exit $? $(since)"; grep -E "ok|FAILED" "$work/ncu-gemm$swap.csv" | head -5
  python3 scripts/gpu/ncu_summary.py "$work/ncu-gemm$swap.csv" "${metrics[@]}" | cut -c1-600
done
cp "$work"/ncu-gemm*.csv "$out/"
timeout 200 python3 bench/torch/gemm_tile_sweep.py --shapes mid-m --iters 20 --out "$work" \
  --tiles 64x128x64/s8,64x128x128/s4,128x64x64/s8,128x64x128/s4 > "$out/tile-sweep-siblings.md" 2> "$work/tile-sweep.err"
echo "=== sibling sweep exit $? $(since)"; cat "$out/tile-sweep-siblings.md"; tail -3 "$work/tile-sweep.err"
