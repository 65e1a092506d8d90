#!/usr/bin/env bash
# Session 33's GPU work in one call (built; the session got no GPU) (GPU machine, repository
# root, .gpu/ carried): the GEMM tests the change touches, memcheck and racecheck over the new
# ones, the fused rows beside torch, the narrow-N and deep-K rows with the /k tiles.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
filter='CudaClusteredTiles.*:CudaTuning.EveryTensorCore*:*CudaLinear.*:*TensorCoreGemm*:*SwappedGemm*:*CudaBmm*'
pids=()
for i in 0 1 2 3; do
  GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 .gpu/bin/tileops_cuda_tests \
    --gtest_filter="$filter" > "$work/tests-$i.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; echo "shard exit $?"; done
cat "$work"/tests-*.log > "$out/tests.log"
echo "=== tests $(since): $(grep -c '^\[       OK' "$out/tests.log") OK, $(grep -c '^\[  FAILED  \] [A-Z]' "$out/tests.log") failed"
grep -E '^\[  FAILED  \] [A-Z]|Failure$|Expected|Which is|seed' "$out/tests.log" | head -20
filter='*SplitsInAClusterMeetInSharedMemory*:*ResidualMayBeTheOutput*'
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter="$filter" > "$out/sanitizer-$tool.log" 2>&1 &
done
wait
echo "=== sanitizers $(since)"
grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out"/sanitizer-*.log | head
# The fused rows with the residual through the staged store (default), then through the
# TMA-store epilogue (TILEOPS_GEMM_EXPERIMENTAL=1).
for experimental in 0 1; do
  mkdir -p "$work/fused-$experimental"
  TILEOPS_GEMM_EXPERIMENTAL=$experimental timeout 80 python3 bench/torch/gemm_bench.py \
    --only fused --iters 20 --out "$work/fused-$experimental" > "$out/fused-$experimental.txt" 2>&1
  echo "=== fused experimental=$experimental exit $? $(since)"
  cp "$work/fused-$experimental/gemm.md" "$out/fused-$experimental.md" 2>/dev/null &&
    grep -E '^\| (linear|gate|bmm)' "$out/fused-$experimental.md"
done
export TILEOPS_GEMM_EXPERIMENTAL=1  # the /k tiles are candidates only under it
tiles=64x64x128/s6,64x64x128/s6/uncapped,64x64x128/s6/k,64x64x128/s6/k/uncapped,64x32x128/s8/k/uncapped
timeout 130 python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n --tiles $tiles --iters 20 \
  --out "$work" > "$out/sweep-narrow-n.md" 2> "$out/sweep-narrow-n.err"
echo "=== narrow-n exit $? $(since)"
grep -E '^\| [0-9]|elements' "$out/sweep-narrow-n.md"
tail -3 "$out/sweep-narrow-n.err"
left=$((540 - $(date +%s) + start))
if [ $left -gt 60 ]; then
  timeout $((left - 10)) python3 bench/torch/gemm_tile_sweep.py --shapes deep-k \
    --tiles 64x64x128/s6,64x64x128/s6/k,64x32x128/s8/k/uncapped --iters 20 --out "$work" \
    > "$out/sweep-deep-k.md" 2> "$out/sweep-deep-k.err"
  echo "=== deep-k exit $? $(since)"
  grep -E '^\| [0-9]|elements' "$out/sweep-deep-k.md"
fi
left=$((540 - $(date +%s) + start))
if [ $left -gt 60 ]; then
  timeout $((left - 10)) python3 bench/torch/gemm_tile_sweep.py --shapes small-square \
    --tiles 64x128x64/s8,128x64x64/s8,128x64x64/s8/n2,128x128x64/s6 --iters 20 --out "$work" \
    > "$out/sweep-small-square.md" 2> "$out/sweep-small-square.err"
  echo "=== small-square exit $? $(since)"
  grep -E '^\| [0-9]|elements' "$out/sweep-small-square.md"
fi
# What time is left goes to the block spans (run-spans.sh), when the bundle holds their library.
left=$((550 - $(date +%s) + start))
if [ -d .gpu/lib-spans ] && [ $left -gt 70 ]; then
  timeout $((left - 5)) bash docs/perf/h200-cluster-k-2026-12-08/run-spans.sh
fi
