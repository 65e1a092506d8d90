#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried): the CUDA suite, then the few-rows sweeps
# of run-rows.sh.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
# The whole CUDA suite first (it includes the gated activations of rank 1 and 3, which no GPU has
# run yet), memcheck over the elementwise tests.
SHARDS=12 STEP_TIMEOUT=200 FILTER='-NvrtcCompile.*' SANITIZER_FILTER='*CudaElementwise*' \
  TOOLS=memcheck bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
bash docs/perf/h200-few-rows-2026-12-06/run-rows.sh
