#!/usr/bin/env bash
# Seventh GPU call of the thirteenth session: the swapped GEMM with token tiles of 64 and 128
# (m up to 128): its tests, compute-sanitizer over the new test, then the mid rows with the
# swapped kernel forced on (TILEOPS_GEMM_SWAP=always) against dispatch's choice (the tile kernel).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='*CudaSwappedGemm*:*GemmDispatch*' SHARDS=6 SANITIZE=0 STEP_TIMEOUT=120 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "swap tests exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A8 "$out/cuda-tests.log" | head -30
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 $T \
    --gtest_filter='*CudaSwappedGemm.UpToAHundredAndTwentyEightTokens/bfloat16' > "$out/$tool.log" 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' "$out/$tool.log") after $(( $(date +%s) - start )) s"
done
for swap in always ""; do
  TILEOPS_GEMM_SWAP=$swap timeout 100 python3 bench/torch/gemm_bench.py --only small-m --iters 20 \
    --out "$out/bench-swap-$swap" > "$out/bench-swap-$swap.log" 2>&1
  echo "=== bench TILEOPS_GEMM_SWAP=$swap exit $? after $(( $(date +%s) - start )) s"; grep -E "^mid|^mlp|^ " "$out/bench-swap-$swap.log"
done
for shape in 48x4096x4096 64x14336x4096 96x4096x4096 128x14336x4096 100x2112x7168 128x1024x4096; do
  IFS=x read -r m n k <<< "$shape"
  for swap in always ""; do
    line=$(TILEOPS_GEMM_SWAP=$swap timeout 40 .gpu/bin/tileops bench LinearFwdOp --shape x=${m}x${k} \
      --shape weight=${n}x${k} --dtype bfloat16 --device cuda --iters 20 2>&1 | grep -E "^LinearFwdOp|rror")
    echo "$shape swap=${swap:-unset} | $line"
  done
done | tee "$out/mid-sweep.txt"
