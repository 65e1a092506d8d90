#!/usr/bin/env bash
# Second GPU call (GPU machine, repository root, .gpu/ carried): the swapped GEMM's producer now
# joins a tile's cluster exchange only once the ring holds the next tiles' stages, so clusters may
# walk several tiles. Its tests as dispatch runs them and with cuts forced into several waves
# (TILEOPS_GEMM_SWAP_PLAN), memcheck and racecheck over a forced multi-wave cut, the cut sweep on
# decode shapes, and the flush check with its marks fixed. Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
since() { echo "after $(( $(date +%s) - start )) s"; }
T=.gpu/bin/tileops_cuda_tests
F='*CudaSwappedGemm*:*Swap*:*Skinny*:*GatedMLP*:*GatedLinear*'
for plan in "" 64x8 64x3 128x4; do
  TILEOPS_GEMM_SWAP_PLAN=$plan timeout 150 $T --gtest_filter="$F" > "$work/tests-$plan.log" 2>&1
  echo "tests (plan '$plan') exit $? $(grep -c '^\[       OK' "$work/tests-$plan.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/tests-$plan.log") failed $(since)"
  grep -E "^\[  FAILED  \] [A-Z]" "$work/tests-$plan.log" | sort -u | head -8
  grep -E "Failure|matches_reference|Which is|config" "$work/tests-$plan.log" | head -6
done
for tool in memcheck racecheck; do
  TILEOPS_GEMM_SWAP_PLAN=64x8 timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $T \
    --gtest_filter='*CudaSwappedGemm.SplitsMeetInTheirCluster/bfloat16' > "$work/$tool.log" 2>&1
  echo "$tool (64x8) exit $? $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$work/$tool.log") $(since)"
done
timeout 240 python3 bench/torch/swap_plan_sweep.py --iters 20 --out "$work" > "$out/swap-plan-sweep.md" 2> "$work/sweep.err"
echo "=== swap plan sweep exit $? $(since)"; cat "$out/swap-plan-sweep.md"; tail -3 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/"
timeout 90 python3 bench/torch/l2_flush_check.py --iters 15 > "$out/flush-check.md" 2>&1
echo "=== flush check exit $? $(since)"; grep "^|" "$out/flush-check.md"
timeout 60 ncu --csv --cache-control all --clock-control none \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum -k regex:reduce \
  python3 bench/torch/l2_flush_check.py --plain > "$work/ncu-flush.csv" 2>&1
echo "=== ncu reads exit $? $(since)"
grep -E '"(gpu__time_duration.sum|dram__bytes_read.sum)"' "$work/ncu-flush.csv" | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | tee "$out/ncu-reads.txt"
