#!/usr/bin/env bash
# Fifth GPU call of the fourteenth session (call 4 was never started: the device was refused
# four times), on the tree of commit 4e506ab: the whole CUDA suite but the compile-every-variant
# test, a few rows of the sweep (LayerNorm in one pass, the row edges read up front), the skinny
# GEMM test that failed once in call 3 against this library and against one that widens bf16 by a
# shift (.gpu/shift-lib), then the torch suite. Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='-NvrtcCompile.*' SHARDS=14 SANITIZE=0 STEP_TIMEOUT=120 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m5 "elements differ" "$work/cuda-tests.log"
cp "$work/cuda-tests.log" "$out/"
timeout 40 python3 scripts/gpu/rows_sweep.py --out "$work/sweep" --iters 20 --ops LayerNormFwdOp \
  --shapes 65536x128,4096x1000,2048x4095,4096x4096,4096x4097,1x4096,1x262144 > "$out/sweep-ln.log" 2>&1
timeout 25 python3 scripts/gpu/rows_sweep.py --out "$work/sweep2" --iters 20 --ops RMSNormFwdOp,SoftmaxFwdOp \
  --shapes 2048x4095,4096x4097 > "$out/sweep-edges.log" 2>&1
echo "=== sweeps after $(( $(date +%s) - start )) s"; cat "$out/sweep-ln.log" "$out/sweep-edges.log" | cut -c1-100
for lib in lib shift-lib; do
  LD_LIBRARY_PATH=$PWD/.gpu/$lib timeout 30 $T --gtest_filter='*SkinnyBatchesUpToThirtyTwo/bfloat16' > "$work/skinny-$lib.log" 2>&1
  echo "skinny with .gpu/$lib: exit $? after $(( $(date +%s) - start )) s"; grep -m2 "elements differ" "$work/skinny-$lib.log"
done
cat "$work"/skinny-*.log > "$out/skinny.log"
OUT=$work timeout 90 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s: $(grep -E ' passed| failed' "$out/torch-suite.txt" | tail -1)"
