#!/usr/bin/env bash
# First GPU call (GPU machine, repository root, .gpu/ carried): the tail boxes (the tiles over an
# operand's last rows load only those rows; gemm_sm90_ws.cu map_a_tail / map_b_tail) in both GEMM
# kernels. The GEMM tests in 8 shards (LastTilesReadOnlyTheirRows among them), memcheck over that
# test, then every row timed with the tail boxes on and off (TILEOPS_GEMM_TAIL_BOXES=0) in one run,
# for the tile kernel alone (swap-off), for dispatch, and for the swapped kernel on every call it
# can serve (plan).
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=8 STEP_TIMEOUT=220 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*' \
  SANITIZER_FILTER='*CudaTensorCoreGemm.LastTiles*/bfloat16' TOOLS=memcheck \
  bash scripts/gpu/run-suite.sh
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
off=TILEOPS_GEMM_TAIL_BOXES=0
# The tile kernel's last row of tiles (m % 64 or m % 128), its last column (n % bn), prefill
# sizes off the tile.
shapes=65x2112x7168,80x2112x7168,96x2112x7168,112x2112x7168,128x2112x7168
shapes=$shapes,65x4096x7168,80x4096x7168,96x4096x7168,128x4096x7168,200x4096x7168,256x4096x7168
shapes=$shapes,1000x4096x4096,1024x4096x4096,4000x4096x4096,4096x4096x4096,4096x4000x4096,256x4000x7168
timeout 240 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans swap-off,swap-off:$off,dispatch,dispatch:$off --out "$work" > "$out/tile-tails.md" 2> "$work/tile.err"
echo "=== tile-kernel tails exit $? $(since)"; cat "$out/tile-tails.md"; tail -2 "$work/tile.err"
cp "$work/swap_plan_sweep.json" "$out/tile_tails.json"
# The swapped kernel: token tiles part-filled (m % 64 or % 128) and a last tile of weight rows.
shapes=40x2112x7168,80x2112x7168,96x2112x7168,128x2112x7168,72x1024x7168,1x4000x4096,16x4000x7168,7x1000x4104
timeout 120 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans plan,plan:$off --out "$work" > "$out/swap-tails.md" 2> "$work/swap.err"
echo "=== swapped tails exit $? $(since)"; cat "$out/swap-tails.md"; tail -2 "$work/swap.err"
cp "$work/swap_plan_sweep.json" "$out/swap_tails.json"
