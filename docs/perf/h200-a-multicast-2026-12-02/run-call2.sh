#!/usr/bin/env bash
# Second GPU call of the fifteenth session: the fused-linear and batched rows of gemm_bench
# (BmmFwdOp on attention shapes, last measured on 2026-11-30 at 0.43-0.58x torch.bmm) beside
# torch; ncu over the attention-shaped bmm, tileops and torch side by side; ncu over row calls
# that miss the copy floor (single rows, LayerNorm block rows, short softmax rows); the retuned
# tile list's tests. Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
T=.gpu/bin/tileops_cuda_tests
timeout 120 $T --gtest_filter='CudaClusteredTiles.*:CudaTuning.Every*' > "$work/tiles.log" 2>&1
echo "tile tests exit $? $(grep -c '^\[       OK' "$work/tiles.log") ok $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/tiles.log") failed after $(( $(date +%s) - start )) s"
timeout 150 python3 bench/torch/gemm_bench.py --only fused --iters 20 --out "$out" > "$out/bench-fused.log" 2>&1
echo "=== bench fused exit $? after $(( $(date +%s) - start )) s"; grep -E "err " "$out/bench-fused.log" | cut -c1-200
metrics=("Duration" "DRAM Throughput" "Compute (SM) Throughput" "L2 Cache Throughput" "Registers Per" "Achieved Occupancy" "Grid Size" "Block Size")
timeout 150 ncu --csv --page details --cache-control all --clock-control none \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
  -k 'regex:gemm|nvjet|sm90|cutlass|xmma' python3 bench/torch/bmm_ncu_probe.py 64x512x512x128t 64x512x128x512 > "$out/ncu-bmm.csv" 2> "$work/ncu-bmm.err"
echo "=== ncu bmm exit $? after $(( $(date +%s) - start )) s"; grep -E "ok|WRONG" "$out/ncu-bmm.csv" | head
python3 scripts/gpu/ncu_summary.py "$out/ncu-bmm.csv" "${metrics[@]}" | cut -c1-700
stalls=""
for r in no_instruction long_scoreboard barrier membar short_scoreboard wait lg_throttle mio_throttle; do
  stalls+="${stalls:+,}smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
NCU_METRICS=$stalls bash scripts/gpu/rows_ncu_probe.sh "$out/ncu-rows.csv" \
  "RMSNormFwdOp --shape x=1x4096 --shape weight=4096 --param normalized_shape=4096" \
  "SoftmaxFwdOp --shape x=1x4096 --param dim=-1" \
  "LayerNormFwdOp --shape x=4096x4096 --shape weight=4096 --shape bias=4096 --param normalized_shape=4096" \
  "RMSNormFwdOp --shape x=4096x4096 --shape weight=4096 --param normalized_shape=4096" \
  "SoftmaxFwdOp --shape x=16384x100 --param dim=-1" \
  "RMSNormFwdOp --shape x=1x262144 --shape weight=262144 --param normalized_shape=262144"
echo "=== ncu rows after $(( $(date +%s) - start )) s"; grep -v "^==PROF==\|^==WARNING==" "$out/ncu-rows.csv.err" | sort | uniq -c | head -5
python3 scripts/gpu/ncu_summary.py "$out/ncu-rows.csv" "Duration" "DRAM Throughput" "L1/TEX Hit" "L2 Hit" "Registers Per" "Achieved Occupancy" "issue_stalled" "Warp Cycles Per Issued" | cut -c1-900
