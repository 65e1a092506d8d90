#!/usr/bin/env bash
# GPU call 1 (GPU machine, repository root, .gpu/ carried from a build of branch gpu-32: the
# tiles that split K inside a cluster (/k) and the residual in the TMA-store epilogue). Their
# tests, memcheck and racecheck over them, then the narrow-N rows with each /k tile beside its
# workspace-split sibling and cuBLAS.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
filter='*SplitsInAClusterMeetInSharedMemory*:*EveryTileThroughEveryEpilogue*:*ClusteredTilesSplitK*:*TwoBoxStagesCoverKTails*:*ResidualMayBeTheOutput*:*CudaLinear.*'
timeout 240 .gpu/bin/tileops_cuda_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "=== tests exit $? $(since): $(grep -c '^\[       OK' "$out/tests.log") OK"
grep -E '^\[  FAILED  \] [A-Z]|Failure|Expected|Which is|seed' "$out/tests.log" | head -12
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*SplitsInAClusterMeetInSharedMemory*:*ResidualMayBeTheOutput*' > "$out/sanitizer-$tool.log" 2>&1 &
done
wait
echo "=== sanitizers $(since)"
grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out"/sanitizer-*.log | head
timeout 200 python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n \
  --tiles 64x64x128/s6,64x64x128/s6/k,64x32x128/s8,64x32x128/s8/k --iters 20 --out "$work" \
  > "$out/sweep-narrow-n.md" 2> "$out/sweep-narrow-n.err"
echo "=== narrow-n exit $? $(since)"; grep -E '^\| [0-9]' "$out/sweep-narrow-n.md"; tail -3 "$out/sweep-narrow-n.err"
