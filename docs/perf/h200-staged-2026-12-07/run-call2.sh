#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried, tree of branch gemm-exp): rows of 16384 on
# the block kernel (register rows of two packs in bf16) against the cluster kernel dispatch takes
# today; then three clustered narrow tiles (tuning candidates on that branch only) forced on the
# narrow-N, deep-K GEMM rows beside dispatch's tile and cuBLAS.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
excluded_long=rms_norm_cluster_cuda,rms_norm_grid_cuda,layer_norm_cluster_cuda,layer_norm_grid_cuda
excluded_long=$excluded_long,fused_add_rms_norm_cluster_cuda,fused_add_rms_norm_grid_cuda
excluded_long=$excluded_long,softmax_cluster_cuda,softmax_grid_cuda,log_softmax_cluster_cuda,log_softmax_grid_cuda
norms=RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp,SoftmaxFwdOp,LogSoftmaxFwdOp
sweep() {  # name, env, sweep args...
  local name=$1 env=$2; shift 2
  echo "=== $name $(since)"
  env "$env" timeout 100 python3 scripts/gpu/rows_sweep.py --out "$work/$name" --iters 30 "$@" 2>&1 | tail -30
  { echo "## $name"; echo; cat "$work/$name/rows-sweep.md"; echo; } >> "$out/sweeps.md"
}
for round in 1 2; do
  sweep long-block-$round TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded_long --ops "$norms" --shapes 1x16384,4x16384
  sweep long-dispatch-$round TILEOPS_NONE=1 --ops "$norms" --shapes 1x16384,4x16384
done
sweep long-block-f32 TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded_long --ops RMSNormFwdOp,SoftmaxFwdOp --shapes 1x8192,1x16384 --dtype float32
sweep long-dispatch-f32 TILEOPS_NONE=1 --ops RMSNormFwdOp,SoftmaxFwdOp --shapes 1x8192,1x16384 --dtype float32
echo "=== gemm sweep $(since)"
timeout 300 python3 bench/torch/gemm_tile_sweep.py --shapes narrow-n --out "$out" \
  --tiles 64x64x128/s6,64x128x64/s8/c2,64x64x64/s12/n2,64x128x64/s8/n2 > "$out/tile-sweep.md" 2>&1
tail -12 "$out/tile-sweep.md"
echo "=== done $(since)"
