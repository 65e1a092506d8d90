#!/usr/bin/env bash
# On the GPU machine (.gpu/ carried): device primitives and the GEMM, Bmm, Linear and tuning tests
# with the default tile choice, a short forced sweep of the cluster tiles against the narrow
# ones (temporary XSWEEP hook), racecheck over a forced cluster tile, then the GEMM benchmark.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$PWD/.gpu/torch/python${PYTHONPATH:+:$PYTHONPATH}
export TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}; mkdir -p "$out"
here=docs/perf/h200-cluster-2026-12-01
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in 4 5 6 7; do python3 $here/cluster_sweep.py warm $t & done; wait
t0=$SECONDS
timeout 230 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='DevicePrimitives.*:*TensorCoreGemm*:*CudaLinear*:*CudaBmm*:CudaTuning.*' >"$out/tests.log" 2>&1
echo "tests: exit $? in $((SECONDS - t0)) s; $(grep -c '^\[       OK' "$out/tests.log") OK"
grep -E '^\[  (PASSED|FAILED) |^\[  FAILED|Failure' "$out/tests.log" | head -20
XSWEEP_TILE=6 XSWEEP_SPLITS=2 timeout 80 compute-sanitizer --tool racecheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='*TensorCoreGemm*SplitKForFewTiles/bfloat16' >"$out/racecheck.log" 2>&1
echo "racecheck (cluster tile, 2 splits): exit $? $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' "$out/racecheck.log")"
SHAPES=short TILESET=final timeout 100 python3 $here/cluster_sweep.py 2>&1 | grep -v '^    ' | tee "$out/sweep.log"
timeout 170 python3 bench/torch/gemm_bench.py --out "$out" --only gemm --iters 20 2>&1 | tail -30
