#!/usr/bin/env bash
# The session's one GPU call when the device is scarce (GPU machine, repository root, .gpu/ carried
# from a build of branch gpu-32, .gpu/lib-spans/ = libtileops built with spans.patch), in order of
# what a merge needs: the /k and residual tests, memcheck and racecheck over them, the fused rows
# beside torch, the narrow-N rows with the /k tiles, then the block spans of a decode and a
# square GEMM.
set -uo pipefail
source scripts/gpu/call_env.sh
dir=docs/perf/h200-spans-2026-12-07
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
filter='*SplitsInAClusterMeetInSharedMemory*:*EveryTileThroughEveryEpilogue*:*ClusteredTilesSplitK*:*TwoBoxStagesCoverKTails*:*ResidualMayBeTheOutput*:*CudaLinear.*'
timeout 110 .gpu/bin/tileops_cuda_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "=== tests exit $? $(since): $(grep -c '^\[       OK' "$out/tests.log") OK"
grep -E '^\[  FAILED  \] [A-Z]|Failure|Expected|Which is|seed' "$out/tests.log" | head -12
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*SplitsInAClusterMeetInSharedMemory*:*ResidualMayBeTheOutput*' > "$out/sanitizer-$tool.log" 2>&1 &
done
wait
echo "=== sanitizers $(since)"
grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out"/sanitizer-*.log | head
timeout 80 python3 bench/torch/gemm_bench.py --only fused --iters 10 --out "$work" > "$out/fused.txt" 2>&1
echo "=== fused exit $? $(since)"; grep -E '^\| (linear|gate|bmm)' "$work/gemm.md"; cp "$work"/gemm.md "$out/fused.md" 2>/dev/null
timeout 110 python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n \
  --tiles 64x64x128/s6,64x64x128/s6/k,64x32x128/s8/k --iters 10 --out "$work" \
  > "$out/sweep-narrow-n.md" 2> "$out/sweep-narrow-n.err"
echo "=== narrow-n exit $? $(since)"; grep -E '^\| [0-9]' "$out/sweep-narrow-n.md"; tail -3 "$out/sweep-narrow-n.err"
run() {  # label, then the CLI's shape arguments
  local label=$1
  shift
  LD_LIBRARY_PATH=$PWD/.gpu/lib-spans:$PWD/.gpu/lib timeout 60 .gpu/bin/tileops bench GemmFwdOp \
    "$@" --dtype bfloat16 --device cuda --iters 3 > "$work/spans-$label.txt" 2>&1
  echo "=== $label exit $? $(since)"
  grep -v '^SP' "$work/spans-$label.txt" | tail -2
  python3 $dir/span_summary.py < "$work/spans-$label.txt" | tee "$out/spans-$label.md"
}
run 1x4096x4096 --shape a=1x4096 --shape b=4096x4096 --param trans_b=true
run 1024x1024x1024 --shape a=1024x1024 --shape b=1024x1024 --param trans_b=false
run 16x4096x7168 --shape a=16x7168 --shape b=4096x7168 --param trans_b=true
