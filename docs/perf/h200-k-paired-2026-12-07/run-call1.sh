#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried): the K-paired GEMM tiles (two consumer
# warpgroups a 64-row tile, alternate stages of K each): their tests and the tensor-core tile
# suite, memcheck and racecheck over the K-paired test, then the tiles forced beside their
# one-consumer siblings and cuBLAS on the narrow-N and deep-K rows.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
SHARDS=4 STEP_TIMEOUT=200 TOOLS='memcheck racecheck' \
  FILTER='*CudaClusteredTiles*:*TensorCoreGemmTile*:*CudaTensorCoreGemm*' \
  SANITIZER_FILTER='*KPairedConsumersShareATile*' OUT=$work/suite \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E 'timed out|compute-sanitizer|SUMMARY' "$work/suite.txt"
grep -E '^\[  FAILED|Failure|Expected|Which is|Value of' "$work/suite/cuda-tests.log" | sort -u | head -16
sweep() {  # shape set, tiles
  timeout 170 python3 bench/torch/gemm_tile_sweep.py --shapes "$1" --tiles "$2" --iters 20 \
    --out "$work" > "$work/sweep-$1.md" 2> "$work/sweep-$1.err"
  echo "=== sweep $1 exit $? $(since)"
  cat "$work/sweep-$1.md"; tail -3 "$work/sweep-$1.err"
  cp "$work/sweep-$1.md" "$out/"
}
sweep narrow-n 64x64x128/s6,64x64x128/s6/uncapped,64x64x128/s6/k2,64x64x128/s6/k2/uncapped,64x32x128/s8/k2,64x32x128/s8/k2/uncapped,64x64x64/s12/k2
sweep deep-k 64x32x128/s8,64x64x128/s6,64x32x128/s8/k2,64x64x128/s6/k2,64x64x128/s6/k2/uncapped
# Issue 9, if time is left: the staged gated-activation kernel on wide rows, as landed (two packs
# a thread) and with four (.gpu/lib-p4: kWide.packs = 4), copy timed beside each row.
gated=4096x14337,2048x4095,2048x2049,8192x4097,1024x8193,16384x2305,512x28673
for lib in lib lib-p4; do
  [ $(( $(date +%s) - start )) -lt 470 ] || { echo "=== gated $lib skipped (time)"; continue; }
  LD_LIBRARY_PATH=$PWD/.gpu/$lib:$PWD/.gpu/lib timeout 60 python3 scripts/gpu/rows_sweep.py \
    --out "$work/gated-$lib" --iters 30 --ops SiluAndMulFwdOp --shapes "$gated" > /dev/null 2>&1
  echo "=== gated $lib exit $? $(since)"
  grep Silu "$work/gated-$lib/rows-sweep.md" | cut -d'|' -f3-6,8
done
