#!/usr/bin/env bash
# Fifth GPU call of the thirteenth session: decode and small-batch linear layers off the GEMM
# benchmark's rows, through `tileops bench` (CUPTI kernel records, L2 flushed, the output checked),
# with the swapped kernel forced on and off in turn, to set where dispatch takes it.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_CACHE_DIR=/tmp/tileops-cache
out=${OUT:-/tmp/out}
mkdir -p "$out"
for shape in 1x2048x2048 1x1024x4096 1x4096x1024 4x4096x4096 8x6144x4096 32x4096x4096 32x14336x4096 \
             1x8192x8192 1x1000x4104 24x2048x16384 1x128256x4096 16x4096x14336; do
  IFS=x read -r m n k <<< "$shape"
  for swap in always 0; do
    line=$(TILEOPS_GEMM_SWAP=$swap timeout 40 .gpu/bin/tileops bench LinearFwdOp --shape x=${m}x${k} \
      --shape weight=${n}x${k} --dtype bfloat16 --device cuda --iters 20 2>&1 | grep -E "^LinearFwdOp|rror")
    echo "$shape swap=$swap | $line"
  done
done | tee "$out/decode-sweep.txt"
