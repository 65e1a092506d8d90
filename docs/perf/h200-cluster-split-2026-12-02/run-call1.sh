#!/usr/bin/env bash
# First GPU call of the thirteenth session (tree 7758ddc + the probe script): the whole CUDA suite
# but the compile-every-variant test (CI runs it), the torch suite, then ncu over tileops and
# cuBLAS on the GEMM rows that miss issue 8's targets. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A6 "$out/cuda-tests.log" | head -40
timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"; grep -E "passed|failed|error" "$out/torch-suite.txt" | tail -5
timeout 200 ncu --csv --page details --cache-control all --clock-control none \
  --section SpeedOfLight --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
  --metrics sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
  -k 'regex:gemm|nvjet|splitK|sm90|cutlass|gemv|memset' \
  python3 bench/torch/gemm_ncu_probe.py 1x4096x14336 1x4096x4096 128x2112x7168 64x4096x7168 > "$out/ncu.csv" 2> "$out/ncu.err"
echo "ncu exit $? after $(( $(date +%s) - start )) s"; grep -v '^"' "$out/ncu.csv" | head; tail -3 "$out/ncu.err"
