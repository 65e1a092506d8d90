#!/usr/bin/env bash
# Fourth GPU call (GPU machine, repository root, .gpu/ carried): ncu over the rows with 1024
# weight rows, where both of tileops's kernels stay far behind cuBLAS (128x1024x7168 17.6 against
# 11.0 us), dispatch (the swapped kernel) and the tile kernel beside cuBLAS's kernels.
set -uo pipefail
source scripts/gpu/call_env.sh
metrics=("Duration" "DRAM Throughput" "L2 Cache Throughput" "Compute (SM) Throughput" "Grid Size" "Block Size" "Cluster Size" "Achieved Occupancy" "Warp Cycles Per Issued" "stall:")
for shape in 128x1024x7168 64x1024x7168; do
  for swap in "" 0; do
    TILEOPS_GEMM_SWAP=$swap timeout 80 ncu --csv --page details --cache-control all --clock-control none \
      --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      -k 'regex:gemm|nvjet|splitK|cutlass|sm90' -c 6 \
      python3 bench/torch/gemm_ncu_probe.py $shape > "$out/ncu-$shape-swap$swap.csv" 2> "$out/ncu-$shape-swap$swap.err"
    echo "=== ncu $shape TILEOPS_GEMM_SWAP=$swap exit $? after $(( $(date +%s) - start )) s"
    python3 scripts/gpu/ncu_summary.py "$out/ncu-$shape-swap$swap.csv" "${metrics[@]}" | head -3 | cut -c1-1100
  done
done
