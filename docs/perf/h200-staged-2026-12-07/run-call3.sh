#!/usr/bin/env bash
# Call 3 (GPU machine, repository root, .gpu/ carried, branch staged at eea0cc2): the staged
# kernel's new bounds (rows of 2048 columns, 2^22 outputs) and rows of 16384 kept on the block
# kernel: the touched suites, memcheck and racecheck over their new cases, the gated rows with the
# staged kernel excluded and taken, and the long rows at dispatch beside the clusters.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=4 STEP_TIMEOUT=200 SANITIZE=0 \
  FILTER='*CudaElementwise*:*CudaNorms*:*RMSNormCuda*:*Softmax*:*RegisterRow*:-*NvrtcCompile*' \
  OUT=$work/suite bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
cat "$work/suite.txt" | grep -E 'timed out|PASSED|FAILED' | head
echo "=== suite $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E '^\[  FAILED|Failure|Expected|Which is' "$work/suite/cuda-tests.log" | head -20
cp "$work/suite/cuda-tests.log" "$out/suite-tests.log"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16:*DecodeRowsTakeTheRegisterRowVariant/bfloat16' \
    > "$work/$tool.log" 2>&1
  echo "=== $tool exit $? $(since): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/$tool.log" | tail -1)"
done
sweep() {  # name, env, sweep args...
  local name=$1 env=$2; shift 2
  echo "=== $name $(since)"
  env "$env" timeout 100 python3 scripts/gpu/rows_sweep.py --out "$work/$name" --iters 30 "$@" 2>&1 | tail -30
  { echo "## $name"; echo; cat "$work/$name/rows-sweep.md"; echo; } >> "$out/sweeps.md"
}
gated=256x4097,1024x1025,1024x4097,2048x2049,4096x2049,2048x4095,4096x14337,65536x1025
for round in 1 2; do
  sweep "gated-flat-$round" TILEOPS_EXCLUDE_IMPLEMENTATIONS=silu_and_mul_staged_cuda --ops SiluAndMulFwdOp --shapes "$gated"
  sweep "gated-dispatch-$round" TILEOPS_NONE=1 --ops SiluAndMulFwdOp --shapes "$gated"
done
sweep long-dispatch TILEOPS_NONE=1 --ops RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp,SoftmaxFwdOp,LogSoftmaxFwdOp --shapes 1x16384,8x16384,1x16392
echo "=== done $(since)"
