#!/usr/bin/env bash
# Second GPU call of the fourteenth session: row kernels that cache four packs a thread (not
# eight) under launch bounds that keep two 512-thread blocks an SM (64 registers), and the
# group-of-lanes kernels with 1 and 2 lanes a row and up to four packs a lane. The norm, softmax
# and tuning tests, memcheck over the short rows, the sweep (bf16 every op, fp16 three), a tuned
# sweep of the block rows, and ncu's per-instruction view of two latency-bound rows. Logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
FILTER='*CudaNorms*:*Softmax*:*CudaTuning*:*Row*' SHARDS=10 SANITIZE=0 STEP_TIMEOUT=150 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "tests exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A8 "$out/cuda-tests.log" | head -30
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='*CudaNorms.ShortRows*/bfloat16:*CudaNorms.Softmax*/float16' > "$out/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -m1 'SUMMARY' "$out/memcheck.log") after $(( $(date +%s) - start )) s"
timeout 120 python3 scripts/gpu/rows_sweep.py --out "$out/sweep-bf16" --iters 20 > "$out/sweep-bf16.log" 2>&1
echo "=== bf16 sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/sweep-bf16.log"
timeout 60 python3 scripts/gpu/rows_sweep.py --out "$out/sweep-fp16" --iters 20 --dtype float16 --ops SoftmaxFwdOp,RMSNormFwdOp,LayerNormFwdOp > "$out/sweep-fp16.log" 2>&1
echo "=== fp16 sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/sweep-fp16.log"
timeout 150 python3 scripts/gpu/rows_sweep.py --out "$out/sweep-tuned" --iters 20 --tuned --ops RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp,SoftmaxFwdOp --shapes 1x4096,2048x4095,4096x4096,4096x4097 > "$out/sweep-tuned.log" 2>&1
echo "=== tuned sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/sweep-tuned.log"
i=0
for probe in "SoftmaxFwdOp --shape x=1x4096 --param dim=-1" "SoftmaxFwdOp --shape x=1x262144 --param dim=-1"; do
  read -r op rest <<<"$probe"
  i=$((i + 1))
  # shellcheck disable=SC2086
  timeout 60 ncu --page source --csv --print-source sass --section SourceCounters --cache-control all \
    --clock-control none -k 'regex:softmax' --launch-skip 1 --launch-count 1 \
    .gpu/bin/tileops bench "$op" $rest --dtype bfloat16 --device cuda --iters 2 > "$out/ncu-sass-$i.csv" 2>&1
  echo "ncu sass exit $? ($probe) after $(( $(date +%s) - start )) s: $(wc -l < "$out/ncu-sass-$i.csv") lines"
done
