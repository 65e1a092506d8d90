#!/usr/bin/env bash
# Second GPU call of the eleventh session: L2 eviction priorities (TILEOPS_XHINT_*, a temporary
# hook; codes 0 normal, 1 evict-first, 2 evict-last, 3 no hint) over every GEMM row, hint against
# no hint in one run, each operand alone on the small-M rows, then every tile with the hints on
# the small and mid shapes (128x64 added). Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
run() {  # name only skinny ws timeout
  TILEOPS_XHINT_SKINNY=$3 TILEOPS_XHINT_WS=$4 timeout $5 python3 bench/torch/gemm_bench.py --only $2 \
    --iters 20 --out "$out/hint-$1" > "$out/hint-$1.log" 2>&1
  echo "=== $1 exit $?"; grep -v -i warn "$out/hint-$1.log" | grep -v "^ *_warn" | tail -22
}
run nohint gemm 3,3 3,3 100
run hinted gemm 1,2 2,1 100
run lastonly small-m 3,2 2,3 45
run firstonly small-m 1,3 3,1 45
TILEOPS_XHINT_WS=2,1 ITERS=12 timeout 230 python3 bench/torch/gemm_tile_sweep.py --shapes small-mid --tiles all \
  --out "$out" > "$out/tile_sweep.md" 2>"$out/tile_sweep.err"
echo "sweep exit $?"; cat "$out/tile_sweep.md"; tail -3 "$out/tile_sweep.err"
