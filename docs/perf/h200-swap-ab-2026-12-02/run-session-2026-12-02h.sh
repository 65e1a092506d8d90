#!/usr/bin/env bash
# First GPU call of the twelfth session (branch swap-ab rebased on main): the swapped-operand GEMM's
# tests with one unit of work per block and the wide split-K reduction, memcheck over its batched
# test, the decode rows and the gated MLP with it off and on (TILEOPS_XSWAP), then the baseline of
# the memory-bound ops over shapes outside the manifest (scripts/gpu/rows_sweep.py) and the host
# path. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
i=0
for f in '*FewTokens*/float16' '*FewTokens*/bfloat16' '*EveryTail*/bfloat16' '*EveryTail*/float16:*Batches*'; do
  timeout 120 $T --gtest_filter="$f" > "$out/swap-tests-$i.log" 2>&1 &
  i=$((i + 1))
done
wait
cat "$out"/swap-tests-*.log > "$out/swap-tests.log"; rm -f "$out"/swap-tests-*.log
echo "tests after $(( $(date +%s) - start )) s: $(grep -c '^\[       OK \]' "$out/swap-tests.log") ok, $(grep -c '^\[  FAILED  \] [A-Z]' "$out/swap-tests.log") failed"
grep -E "Failure|Expected|Which is|actual|mismatch|worst" "$out/swap-tests.log" | head -24
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='*CudaSwappedGemm.Batches*/bfloat16' > "$out/swap-memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/swap-memcheck.log") after $(( $(date +%s) - start )) s"
for s in 0 1; do
  TILEOPS_XSWAP=$s timeout 60 python3 bench/torch/gemm_bench.py --only small-m --iters 20 --out "$out/bench-xswap$s" \
    > "$out/bench-xswap$s.log" 2>&1
  echo "=== xswap $s exit $? after $(( $(date +%s) - start )) s"; grep -E "^decode|^mlp|kernels" "$out/bench-xswap$s.log"
done
timeout 240 python3 scripts/gpu/rows_sweep.py --out "$out/rows-sweep" --iters 20 > "$out/rows-sweep.log" 2>&1
echo "=== rows sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/rows-sweep.log"
REPS=5 timeout 100 bash scripts/gpu/run-host-path.sh > "$out/host-path-run.log" 2>&1
echo "=== host path exit $? after $(( $(date +%s) - start )) s"; tail -25 "$out/host-path-run.log"
