#!/usr/bin/env bash
# Third GPU call of the eleventh session: the whole CUDA suite in shards (the skinny kernel with
# its L2 hints on, TILEOPS_XHINT_SKINNY=1, a temporary hook), compute-sanitizer over the weight-
# stream GEMM tests, then the GEMM benchmark twice, skinny hints off and on. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
TILEOPS_XHINT_SKINNY=1 SHARDS=12 SANITIZE=0 STEP_TIMEOUT=260 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s"
grep -cE "^\[       OK \]" "$out/cuda-tests.log"; grep -E "^\[  FAILED|Failure" -A4 "$out/cuda-tests.log" | head -30
grep -E "^\[  SKIPPED \]" "$out/cuda-tests.log" | head -5
for tool in memcheck racecheck synccheck; do
  TILEOPS_XHINT_SKINNY=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*NarrowTilesForWeightStreams/bfloat16:*SkinnyBatchesUpToThirtyTwo/bfloat16' > "$out/sanitizer-$tool.log" 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' "$out/sanitizer-$tool.log") after $(( $(date +%s) - start )) s"
done
for h in 0 1; do
  TILEOPS_XHINT_SKINNY=$h timeout 110 python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$out/gemm-skinnyhint$h" \
    > "$out/gemm-skinnyhint$h.log" 2>&1
  echo "=== skinny hint $h exit $? after $(( $(date +%s) - start )) s"; grep -v -i warn "$out/gemm-skinnyhint$h.log" | grep -v "^ *_warn" | tail -22
done
