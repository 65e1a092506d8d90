#!/usr/bin/env bash
# GPU call 2 (GPU machine, repository root, .gpu/ carried, .gpu/lib-spans/ = libtileops built with
# spans.patch): where each block of a decode, a square and a narrow-N GEMM spends the call. Each
# row is timed with the CLI (cold L2, 3 calls); span_summary.py lines up the last call's blocks.
set -uo pipefail
source scripts/gpu/call_env.sh
dir=docs/perf/h200-spans-2026-12-07
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
run() {  # label, then the CLI's shape arguments
  local label=$1
  shift
  LD_LIBRARY_PATH=$PWD/.gpu/lib-spans:$PWD/.gpu/lib timeout 90 .gpu/bin/tileops bench GemmFwdOp \
    "$@" --dtype bfloat16 --device cuda --iters 3 > "$work/spans-$label.txt" 2>&1
  echo "=== $label exit $? $(since)"
  grep -v '^SP' "$work/spans-$label.txt" | tail -4
  python3 $dir/span_summary.py < "$work/spans-$label.txt" | tee "$out/spans-$label.md"
}
run 1x4096x4096 --shape a=1x4096 --shape b=4096x4096 --param trans_b=true
run 16x4096x7168 --shape a=16x7168 --shape b=4096x7168 --param trans_b=true
run 1x13824x5120 --shape a=1x5120 --shape b=13824x5120 --param trans_b=true
run 1024x1024x1024 --shape a=1024x1024 --shape b=1024x1024 --param trans_b=false
run 512x256x7168 --shape a=512x7168 --shape b=256x7168 --param trans_b=true
run 4096x4096x4096 --shape a=4096x4096 --shape b=4096x4096 --param trans_b=true
# The fused rows (linear + bias + residual now through the TMA store on two-consumer tiles).
timeout 150 python3 bench/torch/gemm_bench.py --only fused --iters 20 --out "$work" > "$out/fused.txt" 2>&1
echo "=== fused exit $? $(since)"; grep -E '^\| (linear|gate|bmm)' "$work/gemm.md"; cp "$work"/gemm.md "$out/fused.md" 2>/dev/null
timeout 150 python3 bench/torch/gemm_tile_sweep.py --shapes deep-k \
  --tiles 64x64x128/s6,64x64x128/s6/k,64x32x128/s8/k --iters 20 --out "$work" \
  > "$out/sweep-deep-k.md" 2> "$out/sweep-deep-k.err"
echo "=== deep-k exit $? $(since)"; grep -E '^\| [0-9]' "$out/sweep-deep-k.md"; tail -3 "$out/sweep-deep-k.err"
