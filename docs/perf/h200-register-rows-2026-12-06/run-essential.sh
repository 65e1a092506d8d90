#!/usr/bin/env bash
# One call (GPU machine, repository root, .gpu/ carried) for when device time is short: the CUDA
# suites the change touches (norms, softmax, elementwise, graphs) in 8 shards, memcheck over the
# new tests and racecheck over the staged kernel's, then one round of the before/after rows of
# run-call2.sh and the forced four-pack rows.
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=8 STEP_TIMEOUT=${STEP_TIMEOUT:-200} SANITIZE=0 \
  FILTER='*CudaNorms*:*RMSNormCuda*:*CudaElementwise*:*CudaGraph*:*Softmax*:*Rotary*' \
  bash scripts/gpu/run-suite.sh 2>&1 | tail -30
echo "=== suites done $(since): $(grep -c '^\[       OK' "$out/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$out/cuda-tests.log") FAILED lines"
grep '^\[  FAILED  \]' "$out/cuda-tests.log" | sort -u | head -30
new='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16:*DecodeRowsTakeTheRegisterRowVariant/bfloat16'
new="$new:*SoftmaxDecodeRowsHeldInRegisters/float32"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter="$new" > "$work/memcheck.log" 2>&1
echo "=== memcheck exit $? $(since)"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$work/memcheck.log" | tail -5
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16' > "$work/racecheck.log" 2>&1
echo "=== racecheck exit $? $(since)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" "$work/racecheck.log" | tail -5
tail -20 "$work/memcheck.log" > "$out/memcheck-tail.log"
tail -20 "$work/racecheck.log" > "$out/racecheck-tail.log"
ROUNDS=1 SWEEP_TIMEOUT=100 bash docs/perf/h200-register-rows-2026-12-06/run-call2.sh 2>&1 | grep -v '^ *$' | tail -150
