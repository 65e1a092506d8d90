#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried with the precompiled kernel cache;
# .gpu/lib-timeline/ = libtileops built with ../h200-k-paired-2026-12-07/timeline.patch;
# .gpu/torch-old/python = the tileops_torch package of 4206bbb, before a torch call checked once
# and allocated straight from torch's allocator): the whole CUDA suite in 12 shards on a warm
# cache (the first since the serial split-K tail moved to registers); then side by side
# memcheck and racecheck over the split-K, clustered split-K and staged gated tests and the torch
# binding's suite on CUDA; the narrow-N timelines; the host cost of a torch call before and after
# (fastest round of 200). Prints as it goes; logs to $OUT.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=12 STEP_TIMEOUT=180 FILTER='-NvrtcCompile.*' SANITIZE=0 OUT=$out \
  bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$out/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") FAILED, compiled:" \
  "$(grep -c 'compiled .* for sm_' "$out/cuda-tests.log") kernels"
grep -E 'timed out' "$out/suite.txt"
grep -E '^\[  FAILED  \] [A-Z]|Failure' "$out/cuda-tests.log" | sort -u | head -12
grep -h 'compiled .* for sm_' "$out/cuda-tests.log" | sed 's/.*compiled \([a-z0-9_]*\) .*/\1/' | sort | uniq -c | sort -rn | head -6
sanitize() {  # tool, filter
  timeout 170 compute-sanitizer --tool "$1" --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter="$2" > "$out/sanitizer-$1.log" 2>&1
  echo "=== $1 exit $? $(since): $(grep -c '^\[       OK' "$out/sanitizer-$1.log") OK;" \
    "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$1.log" | tail -1)"
}
filter='*CudaTensorCoreGemm.SplitK*/bfloat16:*ClusteredTilesSplitK*:*GatedActivationsOffThePack*/bfloat16'
sanitize memcheck "$filter" &
sanitize racecheck "$filter" &
(OUT=$out timeout 170 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
 echo "=== torch suite exit $? $(since): $(grep -E '[0-9]+ passed' "$out/torch-suite.txt" | tail -1)") &
wait
bash docs/perf/h200-k-paired-2026-12-07/run-timeline.sh 2>&1 | tee "$out/timeline.txt"
cp "$work"/timeline-*.txt "$out/" 2>/dev/null
echo "=== timeline $(since)"
for round in 1 2; do
  for tree in old new; do
    pkg=$PWD/.gpu/torch/python
    [ $tree = old ] && pkg=$PWD/.gpu/torch-old/python
    PYTHONPATH=$pkg:$PWD/.gpu timeout 40 python3 bench/torch/host_path.py --calls 500 \
      --rounds 200 --stat min --out "$out/host-$tree-$round.json" > "$out/host-$tree-$round.txt" 2>&1
    echo "## $tree round $round: $(grep -E 'x \+ y  |AddFwdOp: op class  |fast call alone|RMSNormFwdOp: op class  ' \
      "$out/host-$tree-$round.txt" | awk '{print $(NF-1)}' | tr '\n' ' ')"
  done
done
echo "=== done $(since) (host columns: torch x+y, Add class, fast call alone, RMSNorm class)"
