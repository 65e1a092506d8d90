#!/usr/bin/env bash
# Baseline call (GPU machine, repository root, .gpu/ carried): where the tile kernel's split-K
# time goes on 1024 weight rows with deep K, before the parallel reduction. The rows timed with
# the swapped kernel off (the tile kernel's own split-K) and as dispatch serves them, a K scan
# at 128x1024, and ncu's per-SM active cycles (min / avg / max against the elapsed cycles) on
# 128x1024x7168 and 64x1024x7168.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
shapes=128x1024x7168,96x1024x7168,64x1024x7168,72x1024x7168,128x1024x4096,128x2112x7168
shapes=$shapes,128x1024x2048,128x1024x14336,256x1024x7168,128x1536x7168
timeout 300 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans swap-off,dispatch --out "$work" > "$out/baseline.md" 2> "$work/sweep.err"
echo "=== sweep exit $? $(since)"; cat "$out/baseline.md"; tail -3 "$work/sweep.err"
cp "$work/swap_plan_sweep.json" "$out/baseline.json"
TILEOPS_GEMM_SWAP=0 timeout 200 ncu --csv --page raw --cache-control all --clock-control none \
  --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x \
  -k 'regex:gemm|nvjet|splitK' python3 bench/torch/gemm_ncu_probe.py 128x1024x7168 64x1024x7168 \
  > "$out/ncu-active.csv" 2> "$work/ncu.err"
echo "=== ncu exit $? $(since)"; python3 - "$out/ncu-active.csv" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
r = list(csv.reader(rows))
h = r[0]
for row in r[2:]:
    d = dict(zip(h, row))
    print(d["Kernel Name"][:40], {k.split("__")[-1]: v for k, v in d.items() if "__" in k})
PY
tail -3 "$work/ncu.err"
