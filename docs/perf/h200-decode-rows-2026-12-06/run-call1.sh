#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried): the one-block-a-row kernels' six
# configurations forced on decode-sized rows (scripts/gpu/row_config_sweep.py), then the GEMM
# split cap with and without it on the rows it moves (docs/perf/h200-cluster-split-k-2026-12-06),
# on whichever card this is.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
timeout 200 python3 scripts/gpu/row_config_sweep.py --shapes 1x4096,1x8192,8x4096 \
  --out "$out" > "$out/row-configs.md" 2> "$work/row-configs.err"
echo "=== row configs exit $? $(since)"; cat "$out/row-configs.md"; tail -3 "$work/row-configs.err"
shapes=128x1024x7168,72x1024x7168,64x1024x7168,128x1024x14336,128x5120x7168,256x512x7168
shapes=$shapes,128x1536x7168
timeout $((560 - $(date +%s) + start)) python3 bench/torch/swap_plan_sweep.py --iters 20 \
  --shapes $shapes --plans dispatch,dispatch:TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0 --out "$work" \
  > "$out/gemm-cap.md" 2> "$work/gemm-cap.err"
echo "=== gemm cap exit $? $(since)"; cat "$out/gemm-cap.md"; tail -3 "$work/gemm-cap.err"
