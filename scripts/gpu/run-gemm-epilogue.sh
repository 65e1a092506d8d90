#!/usr/bin/env bash
# The TMA-store epilogue session (docs/perf/h200-epilogue-2026-12-02): the GEMM CUDA tests,
# compute-sanitizer over the every-tile epilogue test, the GEMM benchmark beside cuBLAS and an
# ncu look at the 4096x4096x7168 kernels. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
d=docs/perf/h200-epilogue-2026-12-02
filter='*TensorCoreGemm*:CudaTuning.*:CudaClusteredTiles.*:*CudaBmm*:*CudaLinear*:*GemmEveryTranspose*:DevicePrimitives.*'
pids=()
for i in 0 1 2 3 4 5; do
  GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 300 .gpu/bin/tileops_cuda_tests --gtest_filter="$filter" >"$out/gemm-tests-$i.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || echo "a test shard failed"; done
cat "$out"/gemm-tests-*.log > "$out/gemm-tests.log"; rm -f "$out"/gemm-tests-*.log
grep -E '^\[  (PASSED|FAILED) |Failure|Expected|Which is' "$out/gemm-tests.log" | head -30
for tool in memcheck racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='CudaClusteredTiles.EveryTile*' > "$out/sanitizer-$tool.log" 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' "$out/sanitizer-$tool.log")"
done
timeout ${BENCH_TIMEOUT:-240} python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$out/bench" > "$out/bench.log" 2>&1
echo "bench exit $?"; grep -v Warning "$out/bench.log" | tail -25
timeout 100 ncu -k regex:'gemm_sm90_ws|nvjet' --launch-skip 2 --launch-count 4 --clock-control none \
  --section SpeedOfLight python3 $d/ncu_gemm.py 4096 4096 7168 > "$out/ncu-4096.txt" 2>&1
grep -E "gemm_sm90|nvjet|Duration|Compute \(SM\)" "$out/ncu-4096.txt"
