#!/usr/bin/env bash
# Call 4 (GPU machine, repository root, .gpu/ carried; .gpu/base/ holds the CLI and library of the
# tree before the change): RMSNorm and FusedAddRMSNorm load the weight beside a row of at most a
# pack a thread (one_pack_a_thread). The norm tests with memcheck over them, then decode rows
# before and after, twice each, alternating, in one run.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=4 STEP_TIMEOUT=120 FILTER='*RMSNorm*:*CudaNorms*:*RowKernelConfig*' \
  SANITIZER_FILTER='*RMSNormCuda.*:*CudaNorms.FusedAddRMSNorm*' TOOLS='memcheck' \
  bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
tail -1 "$out/sanitizer-memcheck.log"
shapes=1x2048,1x4096,1x5120,1x8192,8x4096,32x4096
for pass in 1 2; do
  for tree in after before; do
    cli=.gpu/bin/tileops lib=$PWD/.gpu/lib
    if [ $tree = before ]; then cli=.gpu/base/bin/tileops lib=$PWD/.gpu/base/lib:$PWD/.gpu/lib; fi
    LD_LIBRARY_PATH=$lib python3 scripts/gpu/rows_sweep.py --tileops $cli --iters 30 \
      --ops RMSNormFwdOp,FusedAddRMSNormFwdOp --shapes $shapes --out "$work/$tree$pass" \
      > "$work/$tree$pass.log" 2>&1
    echo "## $tree, pass $pass"; grep -v "rows ran" "$work/$tree$pass.log" | cut -c1-110
  done
done | tee "$out/before-after.txt"
echo "=== end $(since)"
