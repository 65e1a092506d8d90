#!/usr/bin/env bash
# First GPU call (GPU machine, repository root, .gpu/ carried): cuts of the swapped GEMM on
# 33-128 tokens, token tiles below the plan's among them (TILEOPS_GEMM_SWAP_PLAN=...t<tokens>).
# The swapped tests (the new forced token tiles among them) and memcheck over those; the cut
# sweep over mid-M linear layers beside dispatch's tile kernel and cuBLAS; ncu over 128x2112x7168
# for the tile kernel and two swapped cuts. Summaries to stdout, logs to $OUT.
set -uo pipefail
source scripts/gpu/call_env.sh
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
T=.gpu/bin/tileops_cuda_tests
shapes=128x2112x7168,64x2112x7168,128x4096x7168,64x4096x7168,96x4096x4096,128x1024x4096,128x7168x2048,128x14336x4096,48x4096x4096
plans=dispatch,plan,128x1,128x2,128x3,128x4,128x6,128x7,64x2,64x3,64x4,128x1t64,128x2t64,128x3t64,64x1t64,64x2t64,128x1t32
timeout 330 python3 bench/torch/swap_plan_sweep.py --iters 20 --shapes $shapes --plans $plans --out "$work" \
  > "$out/swap-plan-sweep.md" 2> "$work/sweep.err"
echo "=== swap plan sweep exit $? $(since)"; cat "$out/swap-plan-sweep.md" | cut -c1-1500; tail -3 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/"
metrics=("Duration" "DRAM Throughput" "L2 Cache Throughput" "L1/TEX Cache Throughput" "Compute (SM) Throughput" "Grid Size" "Cluster Size" "Warp Cycles Per Issued" "stall:")
for cfg in "0:" "always:128x4" "always:128x3t64"; do
  swap=${cfg%%:*} cut=${cfg#*:}
  TILEOPS_GEMM_SWAP=$swap TILEOPS_GEMM_SWAP_PLAN=$cut timeout 60 ncu --csv --page details --cache-control all --clock-control none \
    --section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    -k 'regex:gemm|nvjet|splitK' -c 6 \
    python3 bench/torch/gemm_ncu_probe.py 128x2112x7168 > "$work/ncu-$swap-$cut.csv" 2> "$work/ncu-$swap-$cut.err"
  echo "=== ncu 128x2112x7168 swap=$swap cut=$cut exit $? $(since)"
  python3 scripts/gpu/ncu_summary.py "$work/ncu-$swap-$cut.csv" "${metrics[@]}" | cut -c1-900
done
cp "$work"/ncu-*.csv "$out/"
timeout 120 $T --gtest_filter='*CudaSwappedGemm*:*SwapPlan*' > "$work/tests.log" 2>&1
echo "tests exit $? $(grep -c '^\[       OK' "$work/tests.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/tests.log") failed $(since)"
grep -E "^\[  FAILED  \] [A-Z]" "$work/tests.log" | sort -u | head -8
grep -E "Failure|Which is|Expected|config|seed" "$work/tests.log" | head -12
cp "$work/tests.log" "$out/"
[ $(( $(date +%s) - start )) -lt 480 ] && timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='*CudaSwappedGemm.ForcedTokenTiles*/bfloat16' > "$work/memcheck.log" 2>&1
echo "memcheck (token tiles) exit $? $(grep -m1 'ERROR SUMMARY' "$work/memcheck.log") $(since)"
grep -m3 -B2 -A8 "Error" "$work/memcheck.log" | head -20
