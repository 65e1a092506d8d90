#!/usr/bin/env bash
# The shortest GPU call (GPU machine, repository root, .gpu/ carried from branch gpu-32): the
# tests of the /k tiles and of the residual in the TMA-store epilogue, nothing timed.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
filter='*ResidualMayBeTheOutput*:*SplitsInAClusterMeetInSharedMemory*:*EveryTileThroughEveryEpilogue*:*CudaLinear.EveryTail*'
timeout 100 .gpu/bin/tileops_cuda_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "=== tests exit $? $(since): $(grep -c '^\[       OK' "$out/tests.log") OK"
grep -E '^\[  FAILED  \] [A-Z]|^\[       OK|Failure|Expected|Which is|seed' "$out/tests.log" | head -20
