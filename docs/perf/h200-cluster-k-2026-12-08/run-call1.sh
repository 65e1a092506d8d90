#!/usr/bin/env bash
# Session 33, GPU call 1 (GPU machine, repository root, .gpu/ carried from a build of this
# commit): the whole CUDA suite in eight shards, then memcheck and racecheck over the tests of
# the residual in the TMA-store epilogue and of the /k tiles (split K inside a cluster).
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=8 SANITIZE=0 STEP_TIMEOUT=240 FILTER='-NvrtcCompile.*' bash scripts/gpu/run-suite.sh \
  > "$out/suite.txt" 2>&1
echo "=== suite $(since)"
grep -hE '^\[  (PASSED|FAILED) |tests? ran|timed out' "$out/suite.txt" | sort | uniq -c | head -20
grep -E '^\[  FAILED  \] [A-Z]|Failure$|Expected|Which is|seed' "$out/cuda-tests.log" | head -20
filter='*SplitsInAClusterMeetInSharedMemory*:*ResidualMayBeTheOutput*'
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter="$filter" > "$out/sanitizer-$tool.log" 2>&1 &
done
wait
echo "=== sanitizers $(since)"
grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out"/sanitizer-*.log | head
