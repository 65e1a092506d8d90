#!/usr/bin/env bash
# Third GPU call of the fourteenth session: two lanes at least for a row of two 16-byte packs or
# more, two packs a lane for FusedAddRMSNorm, and bf16 -> f32 by sm_90's cvt. The whole CUDA suite
# but the compile-every-variant test, the torch suite, memcheck over the short rows, the sweep
# (bf16 every op, fp16 three) and the GEMM rows that convert bf16 in their epilogue. Logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A8 "$out/cuda-tests.log" | head -30
timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"; grep -E "passed|failed|error" "$out/torch-suite.txt" | tail -3
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='*CudaNorms.ShortRows*/bfloat16' > "$out/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/memcheck.log") after $(( $(date +%s) - start )) s"
timeout 120 python3 scripts/gpu/rows_sweep.py --out "$out/sweep-bf16" --iters 20 > "$out/sweep-bf16.log" 2>&1
echo "=== bf16 sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/sweep-bf16.log"
timeout 60 python3 scripts/gpu/rows_sweep.py --out "$out/sweep-fp16" --iters 20 --dtype float16 --ops SoftmaxFwdOp,RMSNormFwdOp,FusedAddRMSNormFwdOp > "$out/sweep-fp16.log" 2>&1
echo "=== fp16 sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/sweep-fp16.log"
timeout 100 python3 bench/torch/gemm_bench.py --only small-m --iters 20 --out "$out/bench-small-m" > "$out/bench-small-m.log" 2>&1
echo "=== small-m exit $? after $(( $(date +%s) - start )) s"; grep -v Warn "$out/bench-small-m.log" | grep -v warn_once | tail -30
