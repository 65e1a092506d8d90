#!/usr/bin/env bash
# Third GPU call of the twelfth session: the tests the second call failed (the tuning tests now on
# rows longer than a group of lanes takes; the torch test that named the row kernel), the row
# tests again, then the torch suite with its failures printed. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
i=0
for f in 'CudaTuning.*' '*CudaNorms.*/float16' '*CudaNorms.*/bfloat16' '*CudaNorms.*/float32:RMSNormCuda*'; do
  timeout 200 $T --gtest_filter="$f" > "$out/tests-$i.log" 2>&1 &
  i=$((i + 1))
done
wait
cat "$out"/tests-*.log > "$out/cuda-tests.log"; rm -f "$out"/tests-*.log
echo "tests after $(( $(date +%s) - start )) s: $(grep -c '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -c '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "Failure" -A8 "$out/cuda-tests.log" | head -40
PYTEST_ARGS="-x" timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"
grep -E "FAILED|Error|assert|passed|failed" "$out/torch-suite.txt" | head -30
