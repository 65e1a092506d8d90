#!/usr/bin/env bash
# Second GPU call of the twelfth session: the whole CUDA suite in shards (the row kernels with a
# group of lanes a row and rows of any width in 16-byte packs, the swapped GEMM in dispatch),
# memcheck and racecheck over the new row tests, the memory-bound sweep over shapes outside the
# manifest, the decode and mid GEMM rows with the gated MLP, then the torch suite. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
SHARDS=12 SANITIZE=0 STEP_TIMEOUT=240 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A6 "$out/cuda-tests.log" | head -60
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 $T \
    --gtest_filter='*ShortRowsTakeAGroup*/bfloat16:*WideRowsOfAnyWidth*/float16' > "$out/rows-$tool.log" 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' "$out/rows-$tool.log") after $(( $(date +%s) - start )) s"
done
timeout 200 python3 scripts/gpu/rows_sweep.py --out "$out/rows-sweep" --iters 20 > "$out/rows-sweep.log" 2>&1
echo "=== rows sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/rows-sweep.log"
timeout 60 python3 bench/torch/gemm_bench.py --only small-m --iters 20 --out "$out/bench" > "$out/bench-small-m.log" 2>&1
echo "=== gemm small-m exit $? after $(( $(date +%s) - start )) s"; grep -E "^decode|^mid|^mlp|kernels" "$out/bench-small-m.log"
timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"; tail -4 "$out/torch-suite.txt"
