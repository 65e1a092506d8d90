#!/usr/bin/env bash
# Eighth GPU call of the thirteenth session: softmax's first pass as a max then independent
# exponentials (row_state) and its output from the special-function unit for 16-bit types: the
# norm and softmax tests, memcheck over the softmax tests, and the memory-bound sweep for Softmax
# and LogSoftmax (the copy timed beside each row). Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='*CudaNorms*:*Softmax*:*CudaTuning*' SHARDS=8 SANITIZE=0 STEP_TIMEOUT=120 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "tests exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A8 "$out/cuda-tests.log" | head -30
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='*CudaNorms.Softmax*/bfloat16' > "$out/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/memcheck.log") after $(( $(date +%s) - start )) s"
timeout 100 python3 scripts/gpu/rows_sweep.py --out "$out/rows-sweep" --iters 20 --ops SoftmaxFwdOp,LogSoftmaxFwdOp > "$out/rows-sweep.log" 2>&1
echo "=== rows sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/rows-sweep.log"
