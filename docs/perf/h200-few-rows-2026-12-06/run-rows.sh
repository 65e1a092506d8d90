#!/usr/bin/env bash
# The few-rows sweeps (GPU machine, repository root, .gpu/ carried; run by run-call1.sh here and by
# docs/perf/h200-cluster-split-k-2026-12-06/run-call1.sh): few long rows on the grid a row, by the
# grid's packs a thread (TILEOPS_GRID_ROW_PACKS: fewer packs, more blocks a row) against default
# dispatch (the cluster a row while one wave of clusters holds the rows); rows below the grid's
# floor with the floor lowered (TILEOPS_GRID_ROW_FLOOR); ncu over the grid and cluster kernels on
# one row of 262144.
set -uo pipefail
source scripts/gpu/call_env.sh
mkdir -p "$out/rows"
out=$out/rows
no_cluster=softmax_cluster_cuda,log_softmax_cluster_cuda,rms_norm_cluster_cuda,layer_norm_cluster_cuda,fused_add_rms_norm_cluster_cuda
long=1x65536,1x131072,1x262144,2x131072,4x131072,8x65536,9x65536,16x65536,32x65536,64x131072
short=1x16384,1x32768,1x50257,4x32768,8x32768
ops=RMSNormFwdOp,SoftmaxFwdOp
sweep() {  # name, shapes, env...
  local name=$1 shapes=$2
  shift 2
  env "$@" python3 scripts/gpu/rows_sweep.py --out "$work/$name" --iters 20 --ops $ops --shapes "$shapes" \
    > "$out/$name.log" 2>&1
  echo "=== $name $(since)"
}
sweep long-default "$long"
for p in 1 2 4; do sweep "long-grid-p$p" "$long" TILEOPS_EXCLUDE_IMPLEMENTATIONS=$no_cluster TILEOPS_GRID_ROW_PACKS=$p; done
sweep short-default "$short"
for p in 1 2; do sweep "short-grid-p$p" "$short" TILEOPS_EXCLUDE_IMPLEMENTATIONS=$no_cluster TILEOPS_GRID_ROW_FLOOR=16384 TILEOPS_GRID_ROW_PACKS=$p; done
for f in long short; do
  echo "##### $f"; paste -d'\n' "$out/$f"-*.log | grep -v "rows ran" | cut -c1-150
done
probe="RMSNormFwdOp --shape x=1x262144 --shape weight=262144 --param normalized_shape=262144"
sprobe="SoftmaxFwdOp --shape x=1x262144 --param dim=-1"
timeout 90 bash scripts/gpu/rows_ncu_probe.sh "$out/ncu-cluster.csv" "$probe" "$sprobe"
for p in 1 4; do
  TILEOPS_EXCLUDE_IMPLEMENTATIONS=$no_cluster TILEOPS_GRID_ROW_PACKS=$p timeout 90 \
    bash scripts/gpu/rows_ncu_probe.sh "$out/ncu-grid-p$p.csv" "$probe" "$sprobe"
done
echo "=== ncu $(since)"
for f in "$out"/ncu-*.csv; do
  echo "## $f"; python3 scripts/gpu/ncu_summary.py "$f" "Duration" "DRAM Throughput" "Grid Size" \
    "Block Size" "Registers Per Thread" "Warp Cycles Per Issued Instruction" "Achieved Occupancy"
done
