#!/usr/bin/env bash
# Call 4 (GPU machine, repository root, .gpu/ carried with the torch binding): the committed
# policy (cluster while 8 rows a wave, grid for few rows of 32768 or more, one block a row below),
# the CUDA suite, memcheck over the grid tests, one block a row against the grid near the 32768
# boundary, bf16 few long rows under default dispatch, and the torch suite.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m6 "Failure" -A8 "$work/cuda-tests.log" | head -40
cp "$work/cuda-tests.log" "$out/"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
  --gtest_filter='Dtypes/CudaNorms.FewLongRows*SpreadOverTheGrid/bfloat16:CudaGraph.Grid*:Dtypes/CudaNorms.SoftmaxVariants*/float32' > "$work/memcheck.log" 2>&1
echo "=== memcheck exit $? after $(( $(date +%s) - start )) s"; grep -E "PASSED|FAILED|ERROR SUMMARY" "$work/memcheck.log" | tail -3
cp "$work/memcheck.log" "$out/"
# Near the grid's 32768 floor: default dispatch against one block a row (grid and clusters out).
edge=17x16384,64x16384,128x16384,17x32768,64x32768,128x32768
no_grid=softmax_grid_cuda,softmax_cluster_cuda,rms_norm_grid_cuda,rms_norm_cluster_cuda,layer_norm_grid_cuda,layer_norm_cluster_cuda
python3 scripts/gpu/rows_sweep.py --out "$work/edge" --iters 20 --ops SoftmaxFwdOp,RMSNormFwdOp,LayerNormFwdOp --shapes $edge > "$work/edge.log" 2>&1
TILEOPS_EXCLUDE_IMPLEMENTATIONS=$no_grid python3 scripts/gpu/rows_sweep.py --out "$work/edge-rows" --iters 20 --ops SoftmaxFwdOp,RMSNormFwdOp,LayerNormFwdOp --shapes $edge > "$work/edge-rows.log" 2>&1
paste -d'\n' "$work/edge.log" "$work/edge-rows.log" | cut -c1-140 > "$out/edge.log"
echo "=== edge after $(( $(date +%s) - start )) s"; cut -c1-110 "$out/edge.log"
shapes=1x16384,1x50257,1x128256,1x262144,4x128256,8x128256,8x262144,9x128256,16x128256,32x128256,64x32768,100x65536,2x4194304
python3 scripts/gpu/rows_sweep.py --out "$work/soft" --iters 20 --dtype bfloat16 --ops SoftmaxFwdOp --shapes $shapes > "$out/softmax-bfloat16.log" 2>&1
echo "=== softmax after $(( $(date +%s) - start )) s"; cut -c1-120 "$out/softmax-bfloat16.log"
python3 scripts/gpu/rows_sweep.py --out "$work/norms" --iters 20 --ops RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp --shapes 1x50257,1x262144,8x65536,9x65536,32x65536,64x131072 > "$out/norms.log" 2>&1
echo "=== norms after $(( $(date +%s) - start )) s"; cut -c1-120 "$out/norms.log"
OUT=$work timeout 60 bash scripts/gpu/run-torch-suite.sh > "$work/torch.txt" 2>&1
echo "=== torch suite exit $? after $(( $(date +%s) - start )) s"; tail -4 "$work/torch.txt"
