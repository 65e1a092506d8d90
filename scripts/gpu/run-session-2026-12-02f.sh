#!/usr/bin/env bash
# Closing GPU call of the eleventh session, on the final tree: the whole CUDA suite in shards,
# the torch suite, and ncu naming the kernels of the decode down projection (tileops and cuBLAS).
# Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
SHARDS=12 SANITIZE=0 STEP_TIMEOUT=240 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok"
grep -E "^\[  FAILED|Failure" -A4 "$out/cuda-tests.log" | head -30
timeout 200 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"; tail -4 "$out/torch-suite.txt"
timeout 90 ncu --csv --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread \
  --cache-control all --clock-control none python3 docs/perf/h200-l2-policy-2026-12-02/down_gemv_ncu.py > "$out/down-ncu.csv" 2> "$out/down-ncu.err"
echo "ncu exit $? after $(( $(date +%s) - start )) s"; grep -v "^==PROF==" "$out/down-ncu.csv" | cut -c1-400 | head -40
