#!/usr/bin/env bash
# Second GPU call (GPU machine, repository root, .gpu/ carried): the parallel split-K reduction.
# The GEMM tests in 8 shards (SplitKReductionsAgreeBitForBit among them), memcheck and racecheck
# over the split-K tests, then the split rows timed with the tile kernel's reduction parallel
# (default) and serial (TILEOPS_GEMM_SPLIT_REDUCE=serial) in one run, beside dispatch and cuBLAS;
# rows that do not split, against the previous session's H100 figures; ncu's per-SM active
# cycles on 128x1024x7168 with the parallel reduction.
set -uo pipefail
source scripts/gpu/call_env.sh
SHARDS=8 STEP_TIMEOUT=240 FILTER='*Gemm*:*Linear*:*Swap*:*Bmm*:*Clustered*:*MLP*:*Mlp*:*Tuning*' \
  SANITIZER_FILTER='*CudaTensorCoreGemm.SplitK*/bfloat16' TOOLS='memcheck racecheck' \
  bash scripts/gpu/run-suite.sh
echo "=== suite exit $? $(grep -c '^\[       OK' "$out/cuda-tests.log") ok $(since)"
grep -E "^\[  FAILED  \] [A-Z]|Failure" "$out/cuda-tests.log" | sort -u | head -8
serial=TILEOPS_GEMM_SPLIT_REDUCE=serial
shapes=128x1024x7168,96x1024x7168,64x1024x7168,72x1024x7168,128x1024x4096,128x1024x2048
shapes=$shapes,128x1024x14336,128x1536x7168,64x2112x7168,64x2048x14336,48x1536x4096,200x136x3000
timeout 240 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans swap-off,swap-off:$serial,dispatch,dispatch:$serial --out "$work" > "$out/split.md" 2> "$work/split.err"
echo "=== split rows exit $? $(since)"; cat "$out/split.md"; tail -3 "$work/split.err"
cp "$work/swap_plan_sweep.json" "$out/split.json"
shapes=128x4096x7168,256x4096x7168,1024x4096x4096,4096x4096x4096,128x2112x7168
timeout 120 python3 bench/torch/swap_plan_sweep.py --iters 30 --shapes $shapes \
  --plans dispatch --out "$work" > "$out/unsplit.md" 2> "$work/unsplit.err"
echo "=== unsplit rows exit $? $(since)"; cat "$out/unsplit.md"; tail -3 "$work/unsplit.err"
TILEOPS_GEMM_SWAP=0 timeout 150 ncu --csv --page raw --cache-control all --clock-control none \
  --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size \
  -k 'regex:gemm_sm90' python3 bench/torch/gemm_ncu_probe.py 128x1024x7168 64x1024x7168 \
  > "$out/ncu-active.csv" 2> "$work/ncu.err"
echo "=== ncu exit $? $(since)"; python3 - "$out/ncu-active.csv" <<'PY'
import csv, sys
r = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = r[0]
for row in r[2:]:
    d = dict(zip(h, row))
    print(d["Kernel Name"][:30], "grid", d.get("launch__grid_size"), "ns", d.get("gpu__time_duration.sum"),
          "elapsed", d.get("sm__cycles_elapsed.max"), "active min/avg/max", d.get("sm__cycles_active.min"),
          d.get("sm__cycles_active.avg"), d.get("sm__cycles_active.max"),
          "dram%", d.get("dram__throughput.avg.pct_of_peak_sustained_elapsed"))
PY
tail -3 "$work/ncu.err"
