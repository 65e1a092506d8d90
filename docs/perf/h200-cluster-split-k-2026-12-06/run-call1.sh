#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried): clustered tiles that split K. The GEMM
# tests in 8 shards with memcheck over the new clustered split-K test, then each narrow tile
# forced on the deep-K rows beside cuBLAS, dispatch's own choice on them, and last the few-rows
# sweep of issue 9 (docs/perf/h200-few-rows-2026-12-06/run-rows.sh).
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=8 STEP_TIMEOUT=200 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*:*Tuning*' \
  SANITIZER_FILTER='*ClusteredTilesSplitK*' TOOLS='memcheck' \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
tiles=64x32x128/s8,64x64x128/s6,64x128x64/s8,64x32x64/s16/n2,64x32x128/s8/n2,64x64x128/s6/n2
timeout 240 python3 bench/torch/gemm_tile_sweep.py --shapes deep-k --iters 20 --tiles $tiles \
  --out "$out" > "$out/tile-sweep.md" 2> "$work/tile-sweep.err"
echo "=== tile sweep exit $? $(since)"; cat "$out/tile-sweep.md"; tail -3 "$work/tile-sweep.err"
shapes=128x1024x7168,96x1024x7168,72x1024x7168,64x1024x7168,128x1024x14336,128x1536x7168
shapes=$shapes,128x2112x7168,64x2112x7168,32x1024x7168,200x1024x4096
timeout 100 python3 bench/torch/swap_plan_sweep.py --iters 20 --shapes $shapes --plans dispatch \
  --out "$work" > "$out/dispatch.md" 2> "$work/dispatch.err"
echo "=== dispatch exit $? $(since)"; cat "$out/dispatch.md"; tail -3 "$work/dispatch.err"
timeout $((560 - $(date +%s) + start)) bash docs/perf/h200-few-rows-2026-12-06/run-rows.sh
echo "=== end $(since)"
