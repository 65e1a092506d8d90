#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried; .gpu/base/lib holds libtileops of main at
# 7ff15d2): the one-pack variants of the block-a-row kernels (ONE_PACK, a kernel of its own
# instead of call 1's branch in the generic kernel). The whole CUDA suite in 12 shards; memcheck
# and racecheck over the decode-row tests; then decode and generic rows of the four row kernels
# before (7ff15d2, RMSNorm's and FusedAddRMSNorm's short path a branch in the generic kernel) and
# after, alternating: bfloat16 twice, float16 once; then the torch binding's suite (the fast
# path's extension built for this machine's Python first) with the time left.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=12 STEP_TIMEOUT=150 FILTER='-NvrtcCompile.*' \
  SANITIZER_FILTER='*CudaNorms.DecodeRows*:*CudaNorms.SoftmaxDecode*:*CudaNorms.LayerNormKeeps*' \
  TOOLS='memcheck racecheck' bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
grep -E "compute-sanitizer|ERROR SUMMARY|RACECHECK SUMMARY" "$work/suite.txt" | head -8
shapes=1x2048,1x4096,1x8192,32x4096,1x12288
ops=RMSNormFwdOp,FusedAddRMSNormFwdOp,LayerNormFwdOp,SoftmaxFwdOp
for run in bfloat16:1 bfloat16:2 float16:1; do
  dtype=${run%:*} pass=${run#*:}
  for tree in after before; do
    lib=$PWD/.gpu/lib
    if [ $tree = before ]; then lib=$PWD/.gpu/base/lib:$PWD/.gpu/lib; fi
    LD_LIBRARY_PATH=$lib timeout 100 python3 scripts/gpu/rows_sweep.py --tileops .gpu/bin/tileops \
      --iters 30 --dtype $dtype --ops $ops --shapes $shapes \
      --out "$work/$tree$pass$dtype" > "$work/$tree$pass$dtype.log" 2>&1
    echo "## $tree, pass $pass, $dtype"; grep -v "rows ran" "$work/$tree$pass$dtype.log" | cut -c1-110
  done
done | tee "$out/rows-before-after.txt"
echo "=== rows before-after $(since)"
cp "$work/suite.txt" "$out/suite.txt"
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
OUT=$work timeout $((580 - $(date +%s) + start)) bash scripts/gpu/run-torch-suite.sh \
  > "$work/torch.txt" 2>&1
echo "=== torch suite exit $? $(since)"; tail -4 "$work/torch.txt"
cat "$work/fast-call.log" "$work/torch-env.txt" "$work/torch-tests.log" "$work/torch-example.log" \
  > "$out/torch-suite.log" 2>/dev/null
