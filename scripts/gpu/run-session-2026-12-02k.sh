#!/usr/bin/env bash
# Fourth GPU call of the twelfth session: the whole CUDA suite in shards (the warp-rows kernels at
# four packs a lane and four blocks an SM, the gated activations' fast divisor), memcheck over the
# row and elementwise tests, the memory-bound sweep over shapes outside the manifest, and the
# manifest workloads of the same ops through `tileops bench`. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
SHARDS=12 SANITIZE=0 STEP_TIMEOUT=240 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A6 "$out/cuda-tests.log" | head -40
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='*ShortRowsTakeAGroup*/float16:*CudaElementwise.SiluAndMul/bfloat16' > "$out/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/memcheck.log") after $(( $(date +%s) - start )) s"
timeout 200 python3 scripts/gpu/rows_sweep.py --out "$out/rows-sweep" --iters 20 > "$out/rows-sweep.log" 2>&1
echo "=== rows sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/rows-sweep.log"
timeout 120 .gpu/bin/tileops bench RMSNormFwdOp LayerNormFwdOp FusedAddRMSNormFwdOp SoftmaxFwdOp LogSoftmaxFwdOp SiluAndMulFwdOp \
  --iters 20 --json "$out/manifest-rows.json" > "$out/manifest-rows.txt" 2>&1
echo "=== manifest rows exit $? after $(( $(date +%s) - start )) s"; cat "$out/manifest-rows.txt"
