#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried (the default build, and the
# torch binding for the second half): the host cost of a call. First the C++ benchmark: a bare
# cuLaunchKernel of an empty kernel beside cached tileops calls that launch the same kernel
# (bench/host_path); then the same through tileops_torch beside torch eager
# (bench/torch/host_path.py). Results land in $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$PWD/.gpu/torch/python${PYTHONPATH:+:$PYTHONPATH}
export TILEOPS_CACHE_DIR=${TILEOPS_CACHE_DIR:-/tmp/tileops-cache}
source scripts/gpu/seed_cache.sh
source scripts/gpu/ensure_fast_call.sh
out=${OUT:-/tmp/out}
mkdir -p "$out"
status=0
.gpu/bin/tileops_host_path_bench --benchmark_repetitions=${REPS:-10} \
  --benchmark_report_aggregates_only=true --benchmark_out="$out/host-path.json" \
  --benchmark_out_format=json > "$out/host-path.txt" 2>&1 || status=1
grep -E "median" "$out/host-path.txt"
if [ -f .gpu/torch/python/tileops_torch/libtileops_torch.so ]; then
  python3 bench/torch/host_path.py --out "$out/torch-host-path.json" 2>&1 | tee "$out/torch-host-path.txt" || status=1
fi
exit $status
