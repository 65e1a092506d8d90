#!/usr/bin/env bash
# Fifth GPU call of the fifteenth session: 128-deep stages (two K boxes a stage) for the narrow and
# split tiles, tuning candidates only. Their test and memcheck over it; the GEMM tests; the mid-m
# tile sweep of the 64- and 128-deep tiles side by side, beside cuBLAS. Summaries to stdout.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
timeout 150 $T --gtest_filter='CudaClusteredTiles.*:*CudaTensorCoreGemm.*:*CudaBmm.*' > "$out/gemm-tests.log" 2>&1
echo "gemm tests exit $? $(grep -c '^\[       OK' "$out/gemm-tests.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gemm-tests.log") failed after $(( $(date +%s) - start )) s"
grep -E "^\[  FAILED  \] [A-Z]" "$out/gemm-tests.log" | head; grep -m3 -A8 "Failure" "$out/gemm-tests.log" | head -30
timeout 200 python3 bench/torch/gemm_tile_sweep.py --shapes mid-m --iters 20 --out "$out" \
  --tiles 64x32x64/s16,64x32x128/s8,64x64x64/s12,64x64x128/s6,64x128x128/s4,128x64x64/s8,128x64x128/s4 > "$out/tile-sweep-deep.md" 2> "$work/tile-sweep.err"
echo "=== tile sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/tile-sweep-deep.md"; grep -v -i warn "$work/tile-sweep.err" | tail -3
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='CudaClusteredTiles.TwoBoxStages*' > "$out/memcheck-deep.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/memcheck-deep.log") after $(( $(date +%s) - start )) s"
