#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried, .gpu/lib-base/ as in call 1): what lands,
# the staged kernel's shared-memory reads and its small shape (eight rows of at most 768 16-bit
# columns a block, from 256 columns): the gated suites, memcheck and racecheck over the staged
# test, and gated rows on main's library and on this tree's, alternately.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
SHARDS=4 STEP_TIMEOUT=120 FILTER='*ActAndMul*:*GatedActivations*:*CudaElementwise*' \
  TOOLS='memcheck racecheck' SANITIZER_FILTER='*GatedActivationsOffThePackTakeTheStagedKernel/*' \
  OUT=$work/suite bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E 'timed out|compute-sanitizer|SUMMARY' "$work/suite.txt"
grep -E '^\[  FAILED|Failure|Expected|Which is' "$work/suite/cuda-tests.log" | sort -u | head -12
gated=8192x513,16384x385,65536x257,16384x769,65536x1025,4096x2047,2048x4095,4096x14337
for round in 1 2; do
  for lib in lib-base lib; do
    LD_LIBRARY_PATH=$PWD/.gpu/$lib:$PWD/.gpu/lib timeout 90 python3 scripts/gpu/rows_sweep.py \
      --out "$work/$lib-$round" --iters 30 --ops SiluAndMulFwdOp --shapes "$gated" > /dev/null 2>&1
    echo "## $lib round $round $(since)"
    grep Silu "$work/$lib-$round/rows-sweep.md" | cut -d'|' -f3-6,8
  done
done
