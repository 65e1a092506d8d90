#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried, branch gpu-try: narrow-staged,
# tune-uncapped and the flat rotary kernel over f2bab26): the staged kernel with four rows of at
# most 2048 16-bit columns a block, from 512 columns (gated suites, memcheck and racecheck, gated
# rows with the staged kernel excluded and taken, two rounds); the flat 16-byte rotary kernel
# (its suites, memcheck and racecheck, the rotary benchmark with it excluded and taken, two
# rounds); the uncapped GEMM tuning candidates (their tests, and forced on the narrow-N rows
# beside the capped tile).
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=3 STEP_TIMEOUT=200 SANITIZE=0 \
  FILTER='*CudaElementwise*:*ActAndMul*:*UncappedCandidates*:*ClusteredTilesSplitK*:*Rotary*' OUT=$work/suite \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
grep -E 'timed out' "$work/suite.txt"
echo "=== suite $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E '^\[  FAILED|Failure|Expected|Which is' "$work/suite/cuda-tests.log" | head -20
cp "$work/suite/cuda-tests.log" "$out/suite-tests.log"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16:*CudaRotary*bfloat16:*CudaRotaryMixed*' \
    > "$work/$tool.log" 2>&1
  echo "=== $tool exit $? $(since): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/$tool.log" | tail -1)"
done
sweep() {  # name, env, sweep args...
  local name=$1 env=$2; shift 2
  env "$env" timeout 80 python3 scripts/gpu/rows_sweep.py --out "$work/$name" --iters 30 "$@" > "$work/$name.log" 2>&1
  echo "=== $name exit $? $(since)"
  { echo "## $name"; echo; cat "$work/$name/rows-sweep.md"; echo; } >> "$out/sweeps.md"
}
gated=8192x513,16384x769,65536x1025,4096x1025,4096x1537,4096x2047,2048x2049,4096x14337,1024x1025
for round in 1 2; do
  sweep "gated-flat-$round" TILEOPS_EXCLUDE_IMPLEMENTATIONS=silu_and_mul_staged_cuda --ops SiluAndMulFwdOp --shapes "$gated"
  sweep "gated-dispatch-$round" TILEOPS_NONE=1 --ops SiluAndMulFwdOp --shapes "$gated"
done
grep -vE '^\s*$' "$out/sweeps.md" | cut -c1-160
tiles=64x64x128/s6,64x64x128/s6/uncapped,64x128x64/s8/uncapped,64x128x128/s4/uncapped,64x32x128/s8/uncapped
timeout 150 python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n --tiles $tiles --out "$out" \
  > "$out/tile-sweep.md" 2> "$work/tile-sweep.err"
echo "=== tile sweep exit $? $(since)"; cat "$out/tile-sweep.md"; tail -3 "$work/tile-sweep.err"
for round in 1 2; do
  for excluded in rotary_embedding_flat_vec_cuda none; do
    echo "## rotary round $round, excluded: $excluded" >> "$out/rotary.txt"
    TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded timeout 60 python3 bench/torch/rotary_bench.py \
      --iters 30 >> "$out/rotary.txt" 2>&1
  done
done
echo "=== rotary $(since)"; cat "$out/rotary.txt" | cut -c1-150
