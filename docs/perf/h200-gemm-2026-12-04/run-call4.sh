#!/usr/bin/env bash
# Fourth GPU call (GPU machine, repository root, .gpu/ carried): main's tree as committed (the
# producer joining the cluster exchange late, TILEOPS_GEMM_SWAP_PLAN, stream-K left on its
# branch): the swapped, skinny and gated GEMM tests and the tensor-core tile tests; racecheck over
# the forced multi-wave cuts.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_CACHE_DIR=/tmp/tileops-cache
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
timeout 200 $T --gtest_filter='*CudaSwappedGemm*:*Swap*:*Skinny*:*GatedMLP*:*GatedLinear*:*CudaClusteredTiles*' > "$out/tests.log" 2>&1
echo "tests exit $? $(grep -c '^\[       OK' "$out/tests.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/tests.log") failed after $(( $(date +%s) - start )) s"
grep -E "^\[  FAILED  \] [A-Z]" "$out/tests.log" | sort -u | head -8; grep -E -A3 "Failure" "$out/tests.log" | head -12
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $T \
  --gtest_filter='*CudaSwappedGemm.ForcedCutsWalkSeveralWavesOfClusters/bfloat16' > "$out/racecheck.log" 2>&1
echo "racecheck exit $? $(grep -m1 'RACECHECK SUMMARY' "$out/racecheck.log") after $(( $(date +%s) - start )) s"
