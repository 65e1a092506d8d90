#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried; .gpu/base/lib holds libtileops of main at
# 7ff15d2, before the decode short paths of LayerNorm and softmax): the first whole CUDA suite
# after the decode-row kernels (39b83ed) and those short paths, in 12 shards; memcheck and
# racecheck over the LayerNorm and softmax-rows tests and the clustered split-K test (never raced
# before); LayerNorm and softmax decode rows before and after, twice each, alternating; then GEMM tiles forced on the narrow-N
# deep-K rows (bench/torch/gemm_tile_sweep.py --shapes narrow-n) with the split cap and without.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=12 STEP_TIMEOUT=150 FILTER='-NvrtcCompile.*' \
  SANITIZER_FILTER='*ClusteredTilesSplitK*:*CudaNorms.LayerNorm*:*CudaNorms.SoftmaxDecode*' TOOLS='memcheck racecheck' \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
grep -E "compute-sanitizer|ERROR SUMMARY|RACECHECK SUMMARY" "$work/suite.txt" | head -8
shapes=1x2048,1x4096,1x5120,1x8192,8x4096,32x4096
for pass in 1 2; do
  for tree in after before; do
    lib=$PWD/.gpu/lib
    if [ $tree = before ]; then lib=$PWD/.gpu/base/lib:$PWD/.gpu/lib; fi
    for dtype in bfloat16 float16; do
      LD_LIBRARY_PATH=$lib timeout 90 python3 scripts/gpu/rows_sweep.py --tileops .gpu/bin/tileops \
        --iters 30 --dtype $dtype --ops LayerNormFwdOp,SoftmaxFwdOp --shapes $shapes \
        --out "$work/$tree$pass$dtype" > "$work/$tree$pass$dtype.log" 2>&1
      echo "## $tree, pass $pass, $dtype"; grep -v "rows ran" "$work/$tree$pass$dtype.log" | cut -c1-110
    done
  done
done | tee "$out/rows-before-after.txt"
echo "=== rows before-after $(since)"
tiles=128x128x64/s6,128x64x64/s8,128x64x128/s4,64x128x64/s8,64x128x128/s4,64x64x128/s6
tiles=$tiles,64x32x128/s8,128x128x64/s6/c2
left=$((575 - $(date +%s) + start))
timeout $((left / 2)) python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n --iters 20 \
  --tiles $tiles --out "$work" > "$out/tile-sweep-capped.md" 2> "$work/tile-sweep.err"
echo "=== tile sweep (cap) exit $? $(since)"; cat "$out/tile-sweep-capped.md"
TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0 timeout $((575 - $(date +%s) + start)) \
  python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n --iters 20 --tiles $tiles \
  --out "$work" > "$out/tile-sweep-uncapped.md" 2>> "$work/tile-sweep.err"
echo "=== tile sweep (no cap) exit $? $(since)"; cat "$out/tile-sweep-uncapped.md"
tail -3 "$work/tile-sweep.err"
cp "$work/suite.txt" "$out/suite.txt"
