#!/usr/bin/env bash
# Fourth GPU call of the twelfth session: the whole CUDA suite in shards (the warp-rows kernels at
# four packs a lane and four blocks an SM, the norms' cluster-a-row kernels, softmax split's
# parallel merge, the gated activations' fast divisor), memcheck over the cluster and
# elementwise tests, and the memory-bound sweep over shapes outside the manifest. The suite leaves
# out compiling every variant (CI does that on the CPU) to fit what was left of the session's
# device time. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A6 "$out/cuda-tests.log" | head -40
for tool in memcheck; do
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 3 $T \
    --gtest_filter='*FewLongRowsTakeACluster*/bfloat16:*CudaElementwise.SiluAndMul/float16' > "$out/$tool.log" 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' "$out/$tool.log") after $(( $(date +%s) - start )) s"
done
timeout 110 python3 scripts/gpu/rows_sweep.py --out "$out/rows-sweep" --iters 20 > "$out/rows-sweep.log" 2>&1
echo "=== rows sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/rows-sweep.log"
