#!/usr/bin/env bash
# Session 33, GPU call 2: the fused GEMM rows beside torch (linear + bias + residual now through
# the TMA-store epilogue on 128-row tiles), then the narrow-N rows with the /k tiles beside their
# workspace-split siblings and cuBLAS. Kernel time from torch.profiler records, L2 flushed.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
timeout 150 python3 bench/torch/gemm_bench.py --only fused --iters 20 --out "$work" \
  > "$out/fused.txt" 2>&1
echo "=== fused exit $? $(since)"
cp "$work"/gemm.md "$out/fused.md" 2>/dev/null && grep -E '^\| (linear|gate|bmm)' "$out/fused.md"
tail -3 "$out/fused.txt"
tiles=64x64x128/s6,64x64x128/s6/uncapped,64x64x128/s6/k,64x64x128/s6/k/uncapped,64x32x128/s8,64x32x128/s8/k/uncapped
timeout 260 python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n --tiles $tiles --iters 20 \
  --out "$out" > "$out/sweep-narrow-n.md" 2> "$out/sweep-narrow-n.err"
echo "=== narrow-n exit $? $(since)"
grep -E '^\| [0-9]|elements' "$out/sweep-narrow-n.md"
tail -3 "$out/sweep-narrow-n.err"
# 128x64 on every layout (tuning only off a linear layer's layout): the 1024^3 [k, n] row, where
# cuBLAS runs 128x64 tiles, beside the 64x128 the untuned score takes.
timeout 150 python3 bench/torch/gemm_tile_sweep.py --shapes small-mid \
  --tiles 64x128x64/s8,128x64x64/s8,128x128x64/s6 --iters 20 --out "$work" \
  > "$out/sweep-small-mid.md" 2> "$out/sweep-small-mid.err"
echo "=== small-mid exit $? $(since)"
grep -E '^\| [0-9]|elements' "$out/sweep-small-mid.md"
tail -3 "$out/sweep-small-mid.err"
# A few tokens over about a thousand to two thousand weight rows and deep K (64x2112x7168 was
# 0.92x cuBLAS): the /k tiles beside the untuned 64x64x128 sibling.
timeout 150 python3 bench/torch/gemm_tile_sweep.py --shapes deep-k \
  --tiles 64x64x128/s6,64x64x128/s6/k,64x32x128/s8/k/uncapped --iters 20 --out "$work" \
  > "$out/sweep-deep-k.md" 2> "$out/sweep-deep-k.err"
echo "=== deep-k exit $? $(since)"
grep -E '^\| [0-9]|elements' "$out/sweep-deep-k.md"
tail -3 "$out/sweep-deep-k.err"
