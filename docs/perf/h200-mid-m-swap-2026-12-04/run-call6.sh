#!/usr/bin/env bash
# Sixth GPU call (GPU machine, repository root, .gpu/ carried): the tile over A's last rows
# loading only those rows (map_a_tail in gemm_sm90_ws.cu), after call 5 found a part-filled last
# row of tiles up to 1.7x slower. The GEMM tests in 8 shards (LastRowTileReadsOnlyItsRows among
# them), memcheck over that test, call 5's rows again, and rows with a tail over wider tiles.
# Not run yet: no GPU was lent after call 5. The change is not on main; apply a-tail-box.patch
# (git apply docs/perf/h200-mid-m-swap-2026-12-04/a-tail-box.patch), build the default and torch
# presets, bundle (scripts/gpu/bundle.sh), then run this.
set -uo pipefail
source scripts/gpu/call_env.sh
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
SHARDS=8 STEP_TIMEOUT=200 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*' \
  SANITIZER_FILTER='*CudaTensorCoreGemm.LastRowTile*/bfloat16' TOOLS=memcheck \
  bash scripts/gpu/run-suite.sh
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
shapes=65x2112x7168,72x2112x7168,80x2112x7168,96x2112x7168,112x2112x7168,128x2112x7168
shapes=$shapes,65x4096x7168,80x4096x7168,96x4096x7168,128x4096x7168,200x4096x7168,256x4096x7168
shapes=$shapes,1000x4096x4096,1024x4096x4096,4000x4096x4096,4096x4096x4096
timeout 200 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes --plans swap-off,dispatch \
  --out "$work" > "$out/tail-rows.md" 2> "$work/sweep.err"
echo "=== tail-row sweep exit $? $(since)"; cat "$out/tail-rows.md"; tail -2 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/tail_rows.json"
