#!/usr/bin/env bash
# Second GPU call (GPU machine, repository root, .gpu/ carried): where between 33 and 128 tokens
# the swapped kernel's own plan beats dispatch's tile kernel. Call 1's one win (64x2112x7168) was
# a row where the tile kernel splits K through global partials; this sweep walks N and K around
# it at 40, 48, 64, 80 and 96 tokens. Summaries to stdout, logs to $OUT.
set -uo pipefail
source scripts/gpu/call_env.sh
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
shapes=64x576x7168,64x1024x4096,64x1024x7168,64x1536x7168,64x2048x4096,64x2112x7168,64x2560x7168
shapes=$shapes,64x3072x4096,64x2048x14336,64x3584x7168,40x1024x7168,40x2112x7168,40x3072x4096
shapes=$shapes,48x2112x7168,48x1536x4096,80x2112x7168,96x2112x7168,96x1024x7168,128x1024x7168
shapes=$shapes,64x4096x4096,40x4096x4096
plans=dispatch,plan,64x2,64x4
timeout 420 python3 bench/torch/swap_plan_sweep.py --iters 20 --shapes $shapes --plans $plans --out "$work" \
  > "$out/swap-plan-sweep-2.md" 2> "$work/sweep.err"
echo "=== swap plan sweep exit $? $(since)"; cat "$out/swap-plan-sweep-2.md"; tail -3 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/swap_plan_sweep-2.json"
