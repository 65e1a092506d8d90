#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried with the torch binding): the CUDA suite at
# this tree (the norm grid floor of 65536 and BatchNorm's workspace had never run on a GPU),
# memcheck and racecheck over the grid rows and the graph tests, the norms at the grid's floor
# with and without the grid, the host path (C++ and tileops_torch), what the machine
# offers to build a CPython extension, and the torch suite.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
el() { echo "$(( $(date +%s) - start )) s"; }
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=200 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(el): $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m6 "Failure" -A8 "$work/cuda-tests.log" | head -40
cp "$work/cuda-tests.log" "$out/"
grid='Dtypes/CudaNorms.FewLongRows*/bfloat16:CudaGraph.*:Dtypes/CudaNorms.SoftmaxVariants*/float32:Dtypes/CudaNorms.BatchNorm*/float32'
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests --gtest_filter="$grid" > "$work/$tool.log" 2>&1
  echo "=== $tool exit $? after $(el)"; grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$work/$tool.log" | tail -3
  tail -c 20000 "$work/$tool.log" > "$out/$tool.log"
done
# The norms at and past the grid's floor (65536): default dispatch, then one block a row (grid and
# clusters out).
mid=17x49152,64x49152,17x65536,64x65536,131x65536,17x131072
no_grid=rms_norm_grid_cuda,rms_norm_cluster_cuda,layer_norm_grid_cuda,layer_norm_cluster_cuda,fused_add_rms_norm_grid_cuda,fused_add_rms_norm_cluster_cuda
ops=RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp
python3 scripts/gpu/rows_sweep.py --out "$work/mid" --iters 20 --dtype bfloat16 --ops $ops --shapes $mid > "$work/mid.log" 2>&1
TILEOPS_EXCLUDE_IMPLEMENTATIONS=$no_grid python3 scripts/gpu/rows_sweep.py --out "$work/mid-rows" --iters 20 --dtype bfloat16 --ops $ops --shapes $mid > "$work/mid-rows.log" 2>&1
paste -d'\n' "$work/mid.log" "$work/mid-rows.log" | cut -c1-140 > "$out/norms-mid.log"
echo "=== norms mid after $(el)"; cut -c1-120 "$out/norms-mid.log"
OUT=$work bash scripts/gpu/run-host-path.sh > "$work/host.txt" 2>&1
cp "$work/host-path.txt" "$work/torch-host-path.txt" "$out/" 2>/dev/null
echo "=== host path after $(el)"; cat "$work/host.txt"
echo "=== build tools"; python3 --version; ls /usr/include/python3*/Python.h 2>&1 | head -3; python3 -c "import sysconfig; print(sysconfig.get_paths()['include'])"; which g++ gcc c++ 2>&1; python3 -c "import torch, os; print(os.path.dirname(torch.__file__))"
OUT=$work timeout 90 bash scripts/gpu/run-torch-suite.sh > "$work/torch.txt" 2>&1
echo "=== torch suite exit $? after $(el)"; tail -4 "$work/torch.txt"
