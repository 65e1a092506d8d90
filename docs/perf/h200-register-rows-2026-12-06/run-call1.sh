#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried): the CUDA suite (all but the NVRTC compile
# test, which CI runs) in 12 shards, then memcheck over the register-row and staged gated-activation
# tests and racecheck over the staged kernel's (it stages rows in shared memory).
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=12 STEP_TIMEOUT=${STEP_TIMEOUT:-300} FILTER='-*NvrtcCompile*' SANITIZE=0 \
  bash scripts/gpu/run-suite.sh 2>&1 | tail -40
echo "=== suite done $(since): $(grep -c '^\[       OK' "$out/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$out/cuda-tests.log") FAILED lines"
grep '^\[  FAILED  \]' "$out/cuda-tests.log" | sort -u | head -30
new='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16:*GatedActivationsOffThePackTakeTheStagedKernel/float32'
new="$new:*DecodeRowsTakeTheRegisterRowVariant/bfloat16:*SoftmaxDecodeRowsHeldInRegisters/float32"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter="$new" > "$work/memcheck.log" 2>&1
echo "=== memcheck exit $? $(since)"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$work/memcheck.log" | tail -5
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16' > "$work/racecheck.log" 2>&1
echo "=== racecheck exit $? $(since)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" "$work/racecheck.log" | tail -5
tail -30 "$work/memcheck.log" > "$out/memcheck-tail.log"
tail -30 "$work/racecheck.log" > "$out/racecheck-tail.log"
