#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried): the serial-split cap (untuned_plan in
# gemm_sm90_ws_cuda.cpp). The whole CUDA suite in 12 shards with memcheck over the clustered
# split-K test and the elementwise tests; dispatch with the cap beside dispatch without it
# (TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0) in one run, on the rows the cap moves and on rows it must
# leave alone; then the GEMM benchmark's GEMM and MLP rows.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=12 STEP_TIMEOUT=200 FILTER='-NvrtcCompile.*' \
  SANITIZER_FILTER='*ClusteredTilesSplitK*:*CudaElementwise*' TOOLS='memcheck' \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
tail -2 "$out/sanitizer-memcheck.log"
moved=128x1024x7168,96x1024x7168,72x1024x7168,64x1024x7168,40x1024x7168,128x1024x14336
moved=$moved,128x512x7168,128x5120x7168,96x5120x14336,256x512x7168,512x256x7168,1024x128x14336
kept=128x1536x7168,64x2112x7168,128x2112x7168,200x1024x4096,64x4096x7168,128x4096x7168
timeout 200 python3 bench/torch/swap_plan_sweep.py --iters 20 --shapes $moved,$kept \
  --plans dispatch,dispatch:TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0 --out "$work" \
  > "$out/dispatch.md" 2> "$work/dispatch.err"
echo "=== dispatch exit $? $(since)"; cat "$out/dispatch.md"; tail -3 "$work/dispatch.err"
timeout $((570 - $(date +%s) + start)) python3 bench/torch/gemm_bench.py --only gemm --iters 20 \
  --out "$work/gemm" > "$work/gemm.log" 2>&1
echo "=== gemm bench exit $? $(since)"; cp "$work/gemm/gemm.md" "$out/gemm.md" 2>/dev/null
grep -vE "^\s*$" "$out/gemm.md" | cut -c1-200 | head -60
