#!/usr/bin/env bash
# Last GPU call of the eleventh session (branch swap-ab): the swapped-operand GEMM's tests in four
# processes at once (they share the kernel cache), compute-sanitizer memcheck over its batched
# test, then the decode rows and the gated MLP with it off and on (TILEOPS_XSWAP, a temporary
# switch), and ncu on the decode down projection with it on. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
i=0
for f in '*FewTokens*/float16' '*FewTokens*/bfloat16' '*EveryTail*/bfloat16' '*EveryTail*/float16:*Batches*'; do
  timeout 100 $T --gtest_filter="$f" > "$out/swap-tests-$i.log" 2>&1 &
  i=$((i + 1))
done
wait
cat "$out"/swap-tests-*.log > "$out/swap-tests.log"
echo "tests after $(( $(date +%s) - start )) s: $(grep -c '^\[       OK \]' "$out/swap-tests.log") ok, $(grep -c '^\[  FAILED  \] [A-Z]' "$out/swap-tests.log") failed"
grep -E "Failure|Expected|Which is|actual|mismatch|worst" "$out/swap-tests.log" | head -24
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='*CudaSwappedGemm.Batches*/bfloat16' > "$out/swap-memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/swap-memcheck.log") after $(( $(date +%s) - start )) s"
for s in 0 1; do
  TILEOPS_XSWAP=$s timeout 45 python3 bench/torch/gemm_bench.py --only small-m --iters 20 --out "$out/bench-xswap$s" \
    > "$out/bench-xswap$s.log" 2>&1
  echo "=== xswap $s exit $? after $(( $(date +%s) - start )) s"; grep -E "^decode|^mlp|kernels" "$out/bench-xswap$s.log"
done
TILEOPS_XSWAP=1 timeout 40 ncu --csv --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
  --cache-control all --clock-control none -k regex:gemm_sm90 python3 docs/perf/h200-l2-policy-2026-12-02/down_gemv_ncu.py > "$out/swap-ncu.csv" 2>&1
echo "ncu exit $? after $(( $(date +%s) - start )) s"; grep -E "gemm_sm90" "$out/swap-ncu.csv" | cut -d, -f5,13-15 | head -8
