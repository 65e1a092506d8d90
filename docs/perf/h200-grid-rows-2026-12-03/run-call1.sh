#!/usr/bin/env bash
# Call 1 of this session (GPU machine, repository root, .gpu/ carried): the CUDA suite, memcheck
# over the grid softmax and its graph test, then few long rows with the grid softmax against the
# same library with it excluded (TILEOPS_EXCLUDE_IMPLEMENTATIONS: the cluster or split then
# serves), and the norms' few long rows (whose cluster kernels now prefetch the weight).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m6 "Failure" -A8 "$work/cuda-tests.log" | head -50
grep -E "FewLongRowsSpreadOverTheGrid|GridRowsReplays|SoftmaxVariants" "$work/cuda-tests.log" | grep -E "OK|FAILED" | sort -u
cp "$work/cuda-tests.log" "$out/"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='CudaNorms.FewLongRowsSpreadOverTheGrid/*:CudaGraph.GridRows*:CudaNorms.SoftmaxVariants*' > "$out/memcheck.log" 2>&1
echo "=== memcheck exit $? after $(( $(date +%s) - start )) s"; tail -3 "$out/memcheck.log"
shapes=1x16384,1x50257,1x128256,1x262144,4x128256,8x128256,8x262144,32x128256,64x32768,100x65536
for dt in bfloat16 float32; do
  python3 scripts/gpu/rows_sweep.py --out "$work/grid-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp,LogSoftmaxFwdOp --shapes $shapes > "$out/sweep-grid-$dt.log" 2>&1
  TILEOPS_EXCLUDE_IMPLEMENTATIONS=softmax_grid_cuda,log_softmax_grid_cuda python3 scripts/gpu/rows_sweep.py --out "$work/nogrid-$dt" --iters 20 --dtype $dt --ops SoftmaxFwdOp,LogSoftmaxFwdOp --shapes $shapes > "$out/sweep-nogrid-$dt.log" 2>&1
  echo "=== $dt after $(( $(date +%s) - start )) s"; paste -d'\n' "$out/sweep-grid-$dt.log" "$out/sweep-nogrid-$dt.log" | cut -c1-150
done
python3 scripts/gpu/rows_sweep.py --out "$work/norms" --iters 20 --ops RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp --shapes 1x4096,1x50257,1x262144,4x128256,8x262144 > "$out/sweep-norms.log" 2>&1
echo "=== norms after $(( $(date +%s) - start )) s"; cut -c1-150 "$out/sweep-norms.log"
