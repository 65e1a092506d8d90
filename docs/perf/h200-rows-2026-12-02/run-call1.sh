#!/usr/bin/env bash
# First GPU call of the fourteenth session (tree f02f3ad, never run on the H200): the whole CUDA
# suite but the compile-every-variant test (CI runs it), the torch suite, ncu over single row
# kernel calls, and the memory-bound sweep of the norms and softmax. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A8 "$out/cuda-tests.log" | head -40
timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"; grep -E "passed|failed|error" "$out/torch-suite.txt" | tail -3
timeout 150 bash scripts/gpu/rows_ncu_probe.sh "$out/ncu-rows.csv" \
  "SoftmaxFwdOp --shape x=1x4096 --param dim=-1" \
  "SoftmaxFwdOp --shape x=4096x4096 --param dim=-1" \
  "SoftmaxFwdOp --shape x=65536x7 --param dim=-1" \
  "SoftmaxFwdOp --shape x=1x262144 --param dim=-1" \
  "RMSNormFwdOp --shape x=1x4096 --shape weight=4096 --param normalized_shape=4096" \
  "RMSNormFwdOp --shape x=65536x7 --shape weight=7 --param normalized_shape=7" \
  "RMSNormFwdOp --shape x=65536x128 --shape weight=128 --param normalized_shape=128" \
  "LayerNormFwdOp --shape x=4096x4096 --shape weight=4096 --shape bias=4096 --param normalized_shape=4096"
echo "ncu exit $? after $(( $(date +%s) - start )) s"; tail -3 "$out/ncu-rows.csv.err"
python3 - "$out/ncu-rows.csv" <<'PY'
import csv, sys
keep = ("Duration", "Registers Per Thread", "Achieved Occupancy", "Theoretical Occupancy",
        "DRAM Throughput", "Block Limit Registers", "Block Size", "Grid Size",
        "Warp Cycles Per Issued Instruction", "Memory Throughput", "L1/TEX Hit Rate", "L2 Hit Rate")
for line in open(sys.argv[1]):
    if line.startswith("###"):
        print(line.strip()); continue
    if not line.startswith('"'): continue
    r = next(csv.reader([line]))
    if len(r) < 15 or r[0] == "ID": continue
    name, unit, val = r[-3], r[-2], r[-1]
    if name in keep: print(f"  {name}: {val} {unit}")
    elif r[-4] in ("WarpStateStats",) or "stall" in val.lower()[:200]:
        if len(val) > 40: print("  rule:", val[:300])
PY
timeout 150 python3 scripts/gpu/rows_sweep.py --out "$out/rows-sweep" --iters 20 --ops SoftmaxFwdOp,RMSNormFwdOp,LayerNormFwdOp > "$out/rows-sweep.log" 2>&1
echo "=== rows sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/rows-sweep.log"
