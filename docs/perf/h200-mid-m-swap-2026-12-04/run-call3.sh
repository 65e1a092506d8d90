#!/usr/bin/env bash
# Third GPU call (GPU machine, repository root, .gpu/ carried): the mid-M dispatch rule (the
# swapped kernel where the tile kernel would split K over 64x128 tiles) as committed. The GEMM
# tests in 8 shards, memcheck and racecheck over the swapped kernel's forced token tiles and the
# mid-M linear rows, dispatch against dispatch without the swapped kernel on the rows the rule
# moves and on rows it leaves, and the GEMM benchmark's decode and mid rows beside cuBLAS.
set -uo pipefail
source scripts/gpu/call_env.sh
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
SHARDS=8 STEP_TIMEOUT=200 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*' \
  SANITIZER_FILTER='*CudaSwappedGemm.ForcedTokenTiles*/bfloat16:*CudaLinear.MidMRows*/bfloat16' \
  bash scripts/gpu/run-suite.sh
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
shapes=64x2112x7168,40x2112x7168,48x2112x7168,64x2560x7168,64x2048x14336,128x1024x7168,96x1024x7168
shapes=$shapes,128x2112x7168,64x4096x7168,128x1024x4096,64x1024x7168
timeout 150 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes --plans dispatch,swap-off \
  --out "$work" > "$out/dispatch-sweep.md" 2> "$work/sweep.err"
echo "=== dispatch sweep exit $? $(since)"; cat "$out/dispatch-sweep.md"; tail -2 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/dispatch_sweep.json"
timeout 170 python3 bench/torch/gemm_bench.py --only small-m --iters 20 --out "$out" > "$out/bench-small-m.log" 2>&1
echo "=== bench small-m exit $? $(since)"; grep -E "^\| (decode|mid|llama|mlp)" "$out/gemm.md" | cut -c1-240
tail -3 "$out/bench-small-m.log"
