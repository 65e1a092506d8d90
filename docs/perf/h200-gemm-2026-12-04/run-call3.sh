#!/usr/bin/env bash
# Third GPU call (GPU machine, repository root, .gpu/ carried): stream-K for the swapped GEMM.
# Its tests and the GEMM tests around it, memcheck and racecheck over stream-K, the cut sweep with
# stream-K beside the cuts, and the GEMM benchmark (decode rows after the corrected clean flush,
# the MLP rows). Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
since() { echo "after $(( $(date +%s) - start )) s"; }
T=.gpu/bin/tileops_cuda_tests
F='*CudaSwappedGemm*:*Swap*:*Skinny*:*GatedMLP*:*GatedLinear*:*TensorCoreGemm*:*Bmm*'
timeout 240 $T --gtest_filter="$F" > "$work/tests.log" 2>&1
echo "tests exit $? $(grep -c '^\[       OK' "$work/tests.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/tests.log") failed $(since)"
grep -E "^\[  FAILED  \] [A-Z]" "$work/tests.log" | sort -u | head -8
grep -E "Failure|Which is|Expected|config|seed" "$work/tests.log" | head -12
cp "$work/tests.log" "$out/"
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $T \
    --gtest_filter='*CudaSwappedGemm.StreamK*/bfloat16' > "$work/$tool.log" 2>&1
  echo "$tool (stream-K) exit $? $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$work/$tool.log") $(since)"
  grep -m3 -B2 -A8 "Error\|Hazard" "$work/$tool.log" | head -30
done
timeout 200 python3 bench/torch/swap_plan_sweep.py --iters 20 --out "$work" > "$out/swap-plan-sweep.md" 2> "$work/sweep.err"
echo "=== swap plan sweep exit $? $(since)"; cat "$out/swap-plan-sweep.md"; tail -3 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/"
timeout 200 python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$work" > "$work/bench-gemm.log" 2>&1
echo "=== bench gemm exit $? $(since)"; grep -E "^\| (decode|mid|square)" "$work/gemm.md" | cut -c1-240
cp "$work/gemm.md" "$out/gemm.md"; cp "$work/gemm.json" "$out/gemm.json"
timeout 120 python3 bench/torch/gemm_bench.py --only fused --iters 20 --out "$work" > "$work/bench-fused.log" 2>&1
echo "=== bench fused exit $? $(since)"; grep -E "err " "$work/bench-fused.log" | cut -c1-220
grep -E "^\| (llama|MLP)" "$work/gemm.md" | head -4
cp "$work/bench-fused.log" "$out/"
