#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried: the CUDA suite, then
# compute-sanitizer over it. Logs go to $OUT.
#   FILTER (gtest filter of the suite, default all), SANITIZE=0 to skip the sanitizer,
#   SANITIZER_FILTER (default all), TOOLS (default "memcheck racecheck"), STEP_TIMEOUT (seconds a
#   step may take, default 400).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export TILEOPS_CACHE_DIR=/tmp/tileops-cache
export TILEOPS_LOG=info
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
status=0
timeout "${STEP_TIMEOUT:-400}" .gpu/bin/tileops_cuda_tests --gtest_filter="${FILTER:-*}" 2>&1 |
  tee "$out/cuda-tests.log" | grep -E '^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|error' | head -40
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  for tool in ${TOOLS:-memcheck racecheck}; do
    timeout "${STEP_TIMEOUT:-400}" compute-sanitizer --tool "$tool" --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
      --gtest_filter="${SANITIZER_FILTER:-*}" >"$out/sanitizer-$tool.log" 2>&1
    rc=$?
    echo "compute-sanitizer $tool: exit $rc ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-$tool.log") clean summaries)"
    tail -3 "$out/sanitizer-$tool.log"
    [ "$rc" -eq 0 ] || status=1
  done
fi
exit $status
