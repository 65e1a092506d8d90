#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried, branch gpu-try after call 1's fixes: the
# narrow staged shape from 768 columns; the flat rotary kernel with rotated items first and from
# 4096 items): the whole CUDA suite in 12 shards, memcheck and racecheck over the rotary and
# staged tests; the rotary benchmark with the flat kernel excluded and taken; the gated rows
# around the new bound; then the GEMM benchmark's GEMM rows.
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=12 STEP_TIMEOUT=240 FILTER='-*NvrtcCompile*' TOOLS='memcheck racecheck' \
  SANITIZER_FILTER='*CudaRotary*bfloat16:*CudaRotaryMixed*:*GatedActivationsOffThePackTakeTheStagedKernel/bfloat16' \
  OUT=$work/suite bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E 'timed out|compute-sanitizer|SUMMARY' "$work/suite.txt"
grep -E '^\[  FAILED|Failure' "$work/suite/cuda-tests.log" | sort -u | head -12
cp "$work/suite/cuda-tests.log" "$work/suite/gpu.txt" "$out/"
for round in 1 2; do
  for excluded in rotary_embedding_flat_vec_cuda none; do
    echo "## rotary round $round, excluded: $excluded" >> "$out/rotary.txt"
    TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded timeout 60 python3 bench/torch/rotary_bench.py \
      --iters 30 2>&1 | grep -v -i warn >> "$out/rotary.txt"
  done
done
echo "=== rotary $(since)"; cut -c1-150 "$out/rotary.txt"
gated=8192x513,8192x767,16384x769,65536x1025,4096x1537
for env in TILEOPS_EXCLUDE_IMPLEMENTATIONS=silu_and_mul_staged_cuda TILEOPS_NONE=1; do
  env "$env" timeout 60 python3 scripts/gpu/rows_sweep.py --out "$work/g" --iters 30 \
    --ops SiluAndMulFwdOp --shapes "$gated" > /dev/null 2>&1
  { echo "## gated, $env"; cat "$work/g/rows-sweep.md"; } >> "$out/sweeps.md"
done
echo "=== gated $(since)"; grep -vE '^\s*$' "$out/sweeps.md" | cut -c1-150
timeout $((440 - $(date +%s) + start)) python3 bench/torch/gemm_bench.py --only gemm --iters 20 \
  --out "$work/gemm" > "$work/gemm.log" 2>&1
echo "=== gemm bench exit $? $(since)"; cp "$work/gemm/gemm.md" "$out/gemm.md" 2>/dev/null
grep -vE "^\s*$" "$out/gemm.md" | cut -c1-220 | head -30
