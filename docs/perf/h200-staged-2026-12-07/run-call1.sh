#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried): the staged gated-activation kernel, whose
# loads of both spans all issue before its shared-memory stores: the elementwise suite, memcheck
# and racecheck over its test, and the gated rows with it excluded and taken (ROUNDS times,
# alternating).
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=3 STEP_TIMEOUT=150 SANITIZE=0 FILTER='*CudaElementwise*:*RegisterRow*:*HeldInRegisters*' OUT=$work/suite \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E '^\[  FAILED|Failure|Expected|Which is' "$work/suite/cuda-tests.log" | head -20
cp "$work/suite/cuda-tests.log" "$out/elementwise-tests.log"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16' > "$work/$tool.log" 2>&1
  echo "=== $tool exit $? $(since): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/$tool.log" | tail -1)"
done
gated=1x14337,8x4097,256x4097,1024x1025,2048x4095,4096x14337,65536x1025,4096x4096
sweep() {  # name, env, sweep args...
  local name=$1 env=$2; shift 2
  echo "=== $name $(since)"
  env "$env" timeout 100 python3 scripts/gpu/rows_sweep.py --out "$work/$name" --iters 30 "$@" 2>&1 | tail -30
  { echo "## $name"; echo; cat "$work/$name/rows-sweep.md"; echo; } >> "$out/sweeps.md"
}
for round in $(seq "${ROUNDS:-2}"); do
  sweep "gated-before-$round" TILEOPS_EXCLUDE_IMPLEMENTATIONS=silu_and_mul_staged_cuda --ops SiluAndMulFwdOp --shapes "$gated"
  sweep "gated-after-$round" TILEOPS_NONE=1 --ops SiluAndMulFwdOp --shapes "$gated"
done
echo "=== done $(since)"
