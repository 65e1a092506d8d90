#!/usr/bin/env bash
# Fourth GPU call (GPU machine, repository root, .gpu/ carried): the parallel reduction from 5
# splits and the swapped-kernel rule that leaves the tile kernel the rows it now wins. The GEMM
# tests in 8 shards, racecheck over the bit-for-bit test, then dispatch beside the tile kernel
# alone (swap-off) and the swapped kernel alone (plan) on the split rows.
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=8 STEP_TIMEOUT=240 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*:*Tuning*' \
  SANITIZER_FILTER='*CudaTensorCoreGemm.SplitKReductionsAgree*/bfloat16' TOOLS='racecheck' \
  bash scripts/gpu/run-suite.sh
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
shapes=128x1024x7168,96x1024x7168,72x1024x7168,128x1024x14336,128x1536x7168,64x1024x7168
shapes=$shapes,64x2112x7168,64x2048x14336,128x1024x2048,200x136x3000
timeout 200 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans dispatch,swap-off,plan --out "$work" > "$out/dispatch.md" 2> "$work/dispatch.err"
echo "=== dispatch rows exit $? $(since)"; cat "$out/dispatch.md"; tail -3 "$work/dispatch.err"
cp "$work/swap_plan_sweep.json" "$out/dispatch.json"
