#!/usr/bin/env bash
# Fifth GPU call (GPU machine, repository root, .gpu/ carried): the tile kernel's time over a
# part-filled last row of tiles. Call 2 timed the same 64x32 grid (132 tiles) at 19.4 us for
# m = 128, 22.0 for 96 and 26.4 for 80: the fewer rows the second tile row holds, the slower.
# M from 65 to 128 over two weights with the swapped kernel off, and ncu's memory sections at
# m = 80 and 128 (is it the A loads' out-of-bounds rows?).
set -uo pipefail
source scripts/gpu/call_env.sh
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
shapes=65x2112x7168,72x2112x7168,80x2112x7168,96x2112x7168,112x2112x7168,128x2112x7168
shapes=$shapes,65x4096x7168,80x4096x7168,96x4096x7168,128x4096x7168,200x4096x7168,256x4096x7168
timeout 150 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes --plans swap-off \
  --out "$work" > "$out/tail-rows.md" 2> "$work/sweep.err"
echo "=== tail-row sweep exit $? $(since)"; cat "$out/tail-rows.md"; tail -2 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/tail_rows.json"
metrics=("Duration" "DRAM Throughput" "L2 Cache Throughput" "L1/TEX Cache Throughput" "Memory Throughput" "Grid Size" "Warp Cycles Per Issued" "stall:")
for shape in 80x2112x7168 128x2112x7168; do
  TILEOPS_GEMM_SWAP=0 timeout 80 ncu --csv --page details --cache-control all --clock-control none \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    -k 'regex:gemm_sm90' -c 2 \
    python3 bench/torch/gemm_ncu_probe.py $shape > "$out/ncu-$shape.csv" 2> "$out/ncu-$shape.err"
  echo "=== ncu $shape exit $? $(since)"
  python3 scripts/gpu/ncu_summary.py "$out/ncu-$shape.csv" "${metrics[@]}" > "$out/ncu-$shape.txt"
  cut -c1-1500 "$out/ncu-$shape.txt"
done
