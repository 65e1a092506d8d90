#!/usr/bin/env bash
# Call 4 (GPU machine, repository root, .gpu/ carried): the split-K graph replay test with its
# synchronize moved inside the created stream's guard, repeated.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/gpu.txt"
timeout 150 .gpu/bin/tileops_cuda_tests --gtest_filter='*SplitKReplaysUnderAGraph*' \
  --gtest_repeat=40 > "$out/graph-replay.log" 2>&1
echo "=== graph replay x40 exit $? $(since): $(grep -c '^\[       OK' "$out/graph-replay.log") ok," \
  "$(grep -c '^\[  FAILED  \] Dtypes' "$out/graph-replay.log") failed"
