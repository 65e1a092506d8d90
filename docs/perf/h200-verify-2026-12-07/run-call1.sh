#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried with the precompiled kernel cache;
# .gpu/lib-timeline/ = libtileops built with ../h200-k-paired-2026-12-07/timeline.patch): the
# whole CUDA suite in 12 shards on a warm cache (the first since the serial split-K tail moved to
# registers), memcheck and racecheck over the split-K, clustered split-K and staged gated tests
# side by side, then the narrow-N timelines. Prints as it goes; logs to $OUT.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=12 STEP_TIMEOUT=230 FILTER='-NvrtcCompile.*' SANITIZE=0 OUT=$out \
  bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$out/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") FAILED, compiled:" \
  "$(grep -c 'compiled .* for sm_' "$out/cuda-tests.log") kernels"
grep -E 'timed out' "$out/suite.txt"
grep -E '^\[  FAILED  \] [A-Z]|Failure' "$out/cuda-tests.log" | sort -u | head -12
grep -h 'compiled .* for sm_' "$out/cuda-tests.log" | sed 's/.*compiled \([a-z_]*\).*/\1/' | sort | uniq -c | sort -rn | head -8
sanitize() {  # tool, filter
  timeout 200 compute-sanitizer --tool "$1" --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter="$2" > "$out/sanitizer-$1.log" 2>&1
  echo "=== $1 exit $? $(since): $(grep -c '^\[       OK' "$out/sanitizer-$1.log") OK;" \
    "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$1.log" | tail -1)"
}
filter='*CudaTensorCoreGemm.SplitK*/bfloat16:*ClusteredTilesSplitK*:*GatedActivationsOffThePack*/bfloat16'
sanitize memcheck "$filter" &
sanitize racecheck "$filter" &
wait
bash docs/perf/h200-k-paired-2026-12-07/run-timeline.sh 2>&1 | tee "$out/timeline.txt"
cp "$work"/timeline-*.txt "$out/" 2>/dev/null
echo "=== done $(since)"
