#!/usr/bin/env bash
# Fourth GPU call of the fourteenth session: LayerNorm's statistics in one pass (moments.cuh) and
# the row edges read up front (RowEdges), on top of call 3's tree. The whole CUDA suite but the
# compile-every-variant test; the skinny GEMM test that failed once in call 3 (bf16 1x70001x24),
# twice against this tree's library and twice against the same library with bf16 -> f32 by
# a shift (.gpu/shift-lib); the sweep (bf16, the four changed ops); the torch suite; memcheck.
# Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m5 "elements differ\|Failure" "$work/cuda-tests.log"
cp "$work/cuda-tests.log" "$out/"
skinny='*SkinnyBatchesUpToThirtyTwo/bfloat16'
for lib in lib shift-lib; do
  LD_LIBRARY_PATH=$PWD/.gpu/$lib timeout 100 $T --gtest_filter="$skinny" --gtest_repeat=2 > "$work/skinny-$lib.log" 2>&1
  echo "skinny x2 with .gpu/$lib: exit $? $(grep -c '^\[       OK' "$work/skinny-$lib.log") ok $(grep -c '^\[  FAILED  \] Dtypes' "$work/skinny-$lib.log") failed after $(( $(date +%s) - start )) s"
  grep -m3 "elements differ" "$work/skinny-$lib.log"
done
cat "$work"/skinny-*.log > "$out/skinny.log"
timeout 120 python3 scripts/gpu/rows_sweep.py --out "$work/sweep-bf16" --iters 20 --ops LayerNormFwdOp,RMSNormFwdOp,FusedAddRMSNormFwdOp,SoftmaxFwdOp > "$out/sweep-bf16.log" 2>&1
echo "=== bf16 sweep exit $? after $(( $(date +%s) - start )) s: $(tail -1 "$out/sweep-bf16.log")"
grep -E "LayerNorm|x4097|x4095|x100 |x31 " "$out/sweep-bf16.log" | cut -c1-80
OUT=$work timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s: $(grep -E ' passed| failed' "$out/torch-suite.txt" | tail -1)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='*CudaNorms.ShortRows*/bfloat16:*CudaNorms.WideRows*/float16:*CudaNorms.*Layer*/bfloat16' > "$out/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/memcheck.log") after $(( $(date +%s) - start )) s"
