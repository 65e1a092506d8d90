#!/usr/bin/env bash
# Third GPU call (GPU machine, repository root, .gpu/ carried): the parallel reduction with the
# last split to count in no longer waiting. The GEMM tests in 8 shards; racecheck over the graph
# replay test with each reduction (call 2: the parallel one left the replayed output unwritten
# under racecheck alone); the split rows with both reductions; every tile forced on them.
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=8 STEP_TIMEOUT=240 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*:*Tuning*' \
  SANITIZER_FILTER='*CudaTensorCoreGemm.SplitK*/bfloat16' TOOLS='memcheck' \
  bash scripts/gpu/run-suite.sh
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
for reduce in parallel serial; do
  env TILEOPS_GEMM_SPLIT_REDUCE=$reduce TILEOPS_CACHE_DIR=/tmp/tileops-cache timeout 120 \
    compute-sanitizer --tool racecheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*CudaTensorCoreGemm.SplitKReplaysUnderAGraph/bfloat16' > "$out/racecheck-graph-$reduce.log" 2>&1
  echo "=== racecheck graph replay, $reduce reduction: exit $? $(since)"
  grep -E "Failure|differ|first at|RACECHECK SUMMARY|PASSED|FAILED" "$out/racecheck-graph-$reduce.log" | head -5
done
serial=TILEOPS_GEMM_SPLIT_REDUCE=serial
shapes=128x1024x7168,72x1024x7168,128x1024x4096,128x1024x2048,128x1024x14336,128x1536x7168
shapes=$shapes,64x2112x7168,64x2048x14336,48x1536x4096,200x136x3000,256x256x4096
timeout 200 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans swap-off,swap-off:$serial,dispatch --out "$work" > "$out/split.md" 2> "$work/split.err"
echo "=== split rows exit $? $(since)"; cat "$out/split.md"; tail -3 "$work/split.err"
cp "$work/swap_plan_sweep.json" "$out/split.json"
ITERS=20 timeout 240 python3 bench/torch/gemm_tile_sweep.py --shapes split \
  --tiles 64x128x64/s8,64x64x128/s6,64x32x128/s8,128x128x64/s6,128x64x64/s8,64x128x128/s4,64x256x64/s5 \
  --out "$work" > "$out/tiles.md" 2> "$work/tiles.err"
echo "=== tile sweep exit $? $(since)"; cat "$out/tiles.md"; tail -3 "$work/tiles.err"
cp "$work/tile_sweep.json" "$out/tile_sweep.json"
