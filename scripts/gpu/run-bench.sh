#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried: calibrates the copy roof,
# benchmarks every manifest workload on cuda:0 (each row checked against the float64 reference
# first), times the same workloads with torch eager and torch.compile, and measures the host cost
# of a cached call. Everything lands in $OUT. TUNED=1 runs `tileops tune --all` first (store in
# $OUT/tuning) and benchmarks in tuned mode.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export TILEOPS_CACHE_DIR=/tmp/tileops-cache
source scripts/gpu/seed_cache.sh
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt"
.gpu/bin/tileops calibrate --device cuda:0 | tee "$out/calibrate.txt"
tuned=()
if [ "${TUNED:-0}" = 1 ]; then
  export TILEOPS_TUNING_DIR=$out/tuning
  .gpu/bin/tileops tune --all --device cuda:0 >"$out/tune.txt" 2>"$out/tune.log"
  echo "tune exit $?"; tail -1 "$out/tune.log"
  tuned=(--tuned)
fi
.gpu/bin/tileops bench --all "${tuned[@]}" --device cuda:0 --iters ${ITERS:-50} --json "$out/tileops.json" > "$out/bench-table.txt" 2>&1
echo "bench exit $?"; tail -5 "$out/bench-table.txt"
python3 .gpu/torch_baseline.py "$out/tileops.json" "$out" --compile-budget=${COMPILE_BUDGET:-300} > "$out/torch.log" 2>&1
echo "torch baseline exit $?"; tail -3 "$out/torch.log"
.gpu/bin/tileops_host_path_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  > "$out/host-path.txt" 2>&1
grep -E "median" "$out/host-path.txt"
