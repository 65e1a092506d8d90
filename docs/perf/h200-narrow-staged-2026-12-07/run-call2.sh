#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried, branch gpu-try at b830a69, what landed:
# the narrow staged shape from 768 columns; the flat rotary kernel with rotated items first and
# from 4096 items, the block-per-token 16-byte kernel removed), cut to what the device budget
# left: the rotary and gated suites, memcheck over the rotary tests (the flat kernel uses no
# shared memory, so racecheck has nothing to check) and the rotary benchmark with the flat
# kernel excluded and taken.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=4 STEP_TIMEOUT=100 FILTER='*Rotary*:*ActAndMul*:*GatedActivations*:*UncappedCandidates*' \
  TOOLS='memcheck' SANITIZER_FILTER='*CudaRotary*bfloat16:*CudaRotaryMixed*' \
  OUT=$work/suite bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E 'timed out|compute-sanitizer|SUMMARY' "$work/suite.txt"
grep -E '^\[  FAILED|Failure' "$work/suite/cuda-tests.log" | sort -u | head -12
cp "$work/suite/cuda-tests.log" "$out/"
for excluded in rotary_embedding_flat_vec_cuda none; do
  echo "## rotary, excluded: $excluded" >> "$out/rotary.txt"
  TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded timeout 40 python3 bench/torch/rotary_bench.py \
    --iters 30 2>&1 | grep -v -i warn >> "$out/rotary.txt"
done
echo "=== rotary $(since)"; cut -c1-150 "$out/rotary.txt"
