#!/usr/bin/env bash
# One GPU call of the eleventh session: the rotary tests (last session's host refactor, never run
# on a GPU), torch_baseline's profiler path on two rows, and the L2 eviction-priority experiment
# on the decode, mid-M and gated-MLP rows (TILEOPS_XHINT_*, a temporary hook). Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
timeout 150 .gpu/bin/tileops_cuda_tests --gtest_filter='*Rotary*:*Skinny*:*NarrowTiles*:*EveryTileThroughEveryEpilogue*:*GatedEveryActivation*:*SplitKForFewTiles*' \
  > "$out/tests.log" 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|tests ran" "$out/tests.log"; grep -E "^\[  FAILED" "$out/tests.log" | head
timeout 60 .gpu/bin/tileops bench RMSNormFwdOp AddFwdOp --device cuda:0 --iters 20 --json "$out/tb.json" > "$out/tb-bench.txt" 2>&1
echo "bench exit $?"
timeout 90 python3 .gpu/torch_baseline.py "$out/tb.json" "$out/tb" --no-compile > "$out/tb-torch.log" 2>&1
echo "torch_baseline exit $?"; tail -4 "$out/tb-torch.log"; head -12 "$out/tb/report.md" 2>/dev/null
for cfg in "base 0,0 0,0" "first 1,0 0,1" "firstlast 1,2 2,1"; do
  set -- $cfg
  TILEOPS_XHINT_SKINNY=$2 TILEOPS_XHINT_WS=$3 timeout 150 python3 bench/torch/gemm_bench.py --only small-m \
    --iters 20 --out "$out/hint-$1" > "$out/hint-$1.log" 2>&1
  echo "=== $1 exit $?"; grep -v -i warn "$out/hint-$1.log" | tail -14
done
