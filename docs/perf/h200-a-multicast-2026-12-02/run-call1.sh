#!/usr/bin/env bash
# First GPU call of the fifteenth session. The working tree over main's head 016c51d (never run
# on the GPU as a whole: the cuda::copy fix, the bf16 cvt), with the GEMM tiles clustered along N
# (A multicast): the CUDA suite but the compile-every-variant test; the mid-m tile sweep beside
# cuBLAS; the skinny bf16 test that failed once last session (three more times); the torch suite;
# memcheck and racecheck over the new tiles' test. Then branch rows-ln-edges (rebased on main; its
# library and tests in .gpu/branch): its row tests, the rows sweep A/B against this tree's
# library, memcheck over its changed kernels. Summaries to stdout, logs to $OUT.
# The tiles 64x32x64/s16/n4, 128x32x64/s9/n2 and 128x32x64/s9/n4 were removed after this call
# (report section 3): on the committed tree the sweep's config column names another tile for them.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
B=.gpu/branch/tileops_cuda_tests
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m5 "elements differ\|Failure" "$work/cuda-tests.log"
grep -E "ClustersAlongN" "$work/cuda-tests.log" | head -3
cp "$work/cuda-tests.log" "$out/"
timeout 150 python3 bench/torch/gemm_tile_sweep.py --shapes mid-m --iters 20 --out "$out" \
  --tiles 64x32x64/s16,64x32x64/s16/n2,64x32x64/s16/n4,128x32x64/s9/n2,128x32x64/s9/n4,128x64x64/s8 > "$out/tile-sweep.md" 2> "$work/tile-sweep.err"
echo "=== tile sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/tile-sweep.md"; tail -3 "$work/tile-sweep.err"
timeout 100 $T --gtest_filter='*SkinnyBatchesUpToThirtyTwo/bfloat16' --gtest_repeat=3 > "$work/skinny.log" 2>&1
echo "skinny x3: exit $? $(grep -c '^\[       OK' "$work/skinny.log") ok after $(( $(date +%s) - start )) s"
grep -m3 "elements differ" "$work/skinny.log"
OUT=$work timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s: $(grep -E ' passed| failed' "$out/torch-suite.txt" | tail -1)"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='CudaClusteredTiles.ClustersAlongN*' > "$out/$tool-gemm.log" 2>&1
  echo "$tool gemm exit $? $(grep -m1 'SUMMARY' "$out/$tool-gemm.log") after $(( $(date +%s) - start )) s"
done
rows='*CudaNorms*:*Softmax*:*Row*:*LayerNorm*:*RMSNorm*'
LD_LIBRARY_PATH=$PWD/.gpu/branch timeout 150 $B --gtest_filter="$rows" > "$out/branch-tests.log" 2>&1
echo "branch row tests exit $? $(grep -c '^\[       OK' "$out/branch-tests.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/branch-tests.log") failed after $(( $(date +%s) - start )) s"
grep -E "^\[  FAILED  \] [A-Z]" "$out/branch-tests.log" | head -5
for lib in lib branch; do
  LD_LIBRARY_PATH=$PWD/.gpu/$lib timeout 110 python3 scripts/gpu/rows_sweep.py --out "$work/sweep-$lib" --iters 20 \
    --ops LayerNormFwdOp,RMSNormFwdOp,SoftmaxFwdOp > "$out/sweep-$lib.log" 2>&1
  echo "=== sweep .gpu/$lib exit $? after $(( $(date +%s) - start )) s: $(tail -1 "$out/sweep-$lib.log")"
done
paste <(awk '{print $1, $2, $3, $6, $7}' "$out/sweep-lib.log") <(awk '{print $3, $6, $7}' "$out/sweep-branch.log") | head -95
LD_LIBRARY_PATH=$PWD/.gpu/branch timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B \
  --gtest_filter='*CudaNorms.ShortRows*/bfloat16:*CudaNorms.WideRows*/float16:*CudaNorms.*Layer*/bfloat16' > "$out/memcheck-branch.log" 2>&1
echo "memcheck branch exit $? $(grep -m1 'SUMMARY' "$out/memcheck-branch.log") after $(( $(date +%s) - start )) s"
