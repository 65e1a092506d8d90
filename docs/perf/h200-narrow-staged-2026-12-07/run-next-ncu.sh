#!/usr/bin/env bash
# Not run (no device time left): ncu over the narrow-N, deep-K rows, where the tile kernel stays
# at 0.72-0.86x of cuBLAS on the H200. Dispatch's kernel beside cuBLAS's (a 64x64 tile in
# clusters of 8 splitting K, then a reduce kernel): the bytes each moves from the L2 to the SMs
# (read sectors; multicast counted once), tensor-pipe activity and SM cycles, to tell whether the
# mainloop is fed too slowly (cuBLAS multicasts both operands in 4x2 clusters; tileops's clusters
# share one operand between two blocks) or the split costs the time.
set -uo pipefail
source scripts/gpu/call_env.sh
metrics=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum
metrics=$metrics,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,sm__cycles_active.avg,l1tex__m_xbar2l1tex_read_bytes.sum
metrics=$metrics,lts__throughput.avg.pct_of_peak_sustained_elapsed
for shape in 512x256x7168 128x512x7168 1024x128x14336; do
  timeout 90 ncu --csv --page details --cache-control all --clock-control none \
    --section SpeedOfLight --section LaunchStats --metrics "$metrics" \
    -k 'regex:gemm|nvjet|splitK|cutlass|sm90' -c 4 \
    python3 bench/torch/gemm_ncu_probe.py $shape > "$out/ncu-$shape.csv" 2> "$out/ncu-$shape.err"
  echo "=== ncu $shape exit $? $(since)"
  python3 scripts/gpu/ncu_summary.py "$out/ncu-$shape.csv" Duration "Grid Size" "Cluster Size" \
    lts__t_sectors_srcunit_tex_op_read lts__t_sectors_op_read dram__bytes_read gmma xbar2l1tex \
    sm__cycles_active lts__throughput | head -4 | cut -c1-900
done
