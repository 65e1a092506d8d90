#!/usr/bin/env bash
# Call 3 (GPU machine, repository root, .gpu/ carried): the tests of call 2's two shards that ran
# past their 150 s (cold NVRTC compiles of the GEMM tests), and the graph replay of split-K that
# failed once in call 2, repeated.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/gpu.txt"
missed='*CudaNorms.LayerNorm/*:*CudaNorms.SoftmaxVariantsServeTheirCalls*:*FewLongRowsTakeACluster*'
missed=$missed':*BatchNormTraining*:*CudaRotary.Neox*:*SplitKTileCarriesTheTail*'
missed=$missed':*SplitKReductionsAgreeBitForBit*'
SHARDS=3 STEP_TIMEOUT=140 SANITIZE=0 FILTER="$missed" \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== missed tests exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
timeout $((225 - $(date +%s) + start)) .gpu/bin/tileops_cuda_tests \
  --gtest_filter='*SplitKReplaysUnderAGraph*' --gtest_repeat=10 > "$out/graph-replay.log" 2>&1
echo "=== graph replay x10 exit $? $(since): $(grep -c '^\[       OK' "$out/graph-replay.log") ok," \
  "$(grep -c '^\[  FAILED  \] Dtypes' "$out/graph-replay.log") failed"
grep -A3 "Failure" "$out/graph-replay.log" | head -12
