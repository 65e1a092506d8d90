#!/usr/bin/env bash
# On the GPU machine, from the repository root with .gpu/ carried (scripts/gpu/bundle.sh after a
# build that has the temporary XSWEEP hook): device-primitive tests, the GEMM tests with each
# cluster tile forced, compute-sanitizer over a forced cluster tile, then the tile sweep.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$PWD/.gpu/torch/python${PYTHONPATH:+:$PYTHONPATH}
export TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}; mkdir -p "$out"
here=docs/perf/h200-cluster-2026-12-01
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in 1 3 4 5 6 7 8; do python3 $here/cluster_sweep.py warm $t & done; wait
echo "warm done $(date +%T)"
t0=$SECONDS
timeout 120 .gpu/bin/tileops_cuda_tests --gtest_filter='DevicePrimitives.*' 2>&1 | grep -E '^\[  (PASSED|FAILED) |Failure|Expected|Which is' | head -20
gemm='*TensorCoreGemm*EveryLayoutAndEdgeShape*:*TensorCoreGemm*SplitKReplays*:*CudaLinear*'
for forced in "6 1" "7 3" "4 2"; do
  set -- $forced
  echo "== forced tile $1 splits $2"
  XSWEEP_TILE=$1 XSWEEP_SPLITS=$2 timeout 100 .gpu/bin/tileops_cuda_tests --gtest_filter="$gemm" >"$out/forced-$1-$2.log" 2>&1
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED' "$out/forced-$1-$2.log" | head -8
done
echo "tests took $((SECONDS - t0)) s"
for tool in memcheck racecheck synccheck; do
  XSWEEP_TILE=6 XSWEEP_SPLITS=2 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*TensorCoreGemm*SplitKForFewTiles*' >"$out/sanitizer-$tool.log" 2>&1
  echo "compute-sanitizer $tool (tile 6, 2 splits): exit $? $(grep -m1 'ERROR SUMMARY' "$out/sanitizer-$tool.log")"
done
timeout 330 python3 $here/cluster_sweep.py 2>&1 | tee "$out/sweep.log"
