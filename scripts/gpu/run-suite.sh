#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried: the CUDA suite, then
# compute-sanitizer over it. Logs go to $OUT.
#   FILTER (gtest filter of the suite, default all), SANITIZE=0 to skip the sanitizer,
#   SANITIZER_FILTER (default all), TOOLS (default "memcheck racecheck"), STEP_TIMEOUT (seconds a
#   step may take, default 400), SHARDS (run the suite as that many gtest shards at once, sharing
#   the kernel cache: most of a cold run is NVRTC compiling, one kernel a process; default 1).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export TILEOPS_CACHE_DIR=/tmp/tileops-cache
export TILEOPS_LOG=info
source scripts/gpu/seed_cache.sh
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
status=0
shards=${SHARDS:-1}
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout "${STEP_TIMEOUT:-400}" \
    .gpu/bin/tileops_cuda_tests --gtest_filter="${FILTER:-*}" >"$out/cuda-tests-$i.log" 2>&1 &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  rc=$?
  [ "$rc" -eq 0 ] || status=1
  # A shard cut off by its timeout leaves its remaining tests unrun, which the OK count alone hides.
  if [ "$rc" -eq 124 ]; then
    echo "shard $i: timed out after ${STEP_TIMEOUT:-400} s in" \
      "$(grep '^\[ RUN' "$out/cuda-tests-$i.log" | tail -1 | cut -c14-); it and the shard's" \
      "later tests did not finish"
  fi
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|error' "$out/cuda-tests-$i.log" | head -20
done
cat "$out"/cuda-tests-*.log >"$out/cuda-tests.log" && rm -f "$out"/cuda-tests-*.log
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
