#!/usr/bin/env bash
# Third GPU call of the fifteenth session: the tile choice counts padding columns (column_use) and a
# batch is its own tuning spec. The CUDA suite but the compile-every-variant test; the attention
# tile sweep (BmmFwdOp, each tile forced, beside torch.bmm); the fused and batched rows of
# gemm_bench at dispatch's choice. Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m5 "Failure" -A6 "$work/cuda-tests.log" | head -30
cp "$work/cuda-tests.log" "$out/"
timeout 200 python3 bench/torch/gemm_tile_sweep.py --shapes attention --iters 20 --out "$out" \
  --tiles 128x256x64/s4,128x256x64/s4/c2,128x128x64/s6,128x128x64/s6/c2,64x256x64/s5,64x128x64/s8 > "$out/tile-sweep-attention.md" 2> "$work/tile-sweep.err"
echo "=== attention tile sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/tile-sweep-attention.md"; grep -v Warn "$work/tile-sweep.err" | grep -v warn_once | tail -3
timeout 150 python3 bench/torch/gemm_bench.py --only fused --iters 20 --out "$out" > "$out/bench-fused.log" 2>&1
echo "=== bench fused exit $? after $(( $(date +%s) - start )) s"; grep -E "err " "$out/bench-fused.log" | cut -c1-200
python3 - <<'PY'
import sys; sys.path.insert(0, ".gpu/torch/python")
import torch, tileops_torch
for bsz, m, n, k, tb in [(64, 512, 512, 128, True), (64, 512, 128, 512, False), (32, 1024, 128, 1024, False)]:
    a = torch.randn(bsz, m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(*((bsz, n, k) if tb else (bsz, k, n)), device="cuda", dtype=torch.bfloat16)
    op = tileops_torch.BmmFwdOp(trans_b=tb); op(a, b)
    print(f"bmm {bsz}x{m}x{n}x{k} tb={tb}: {op.kernel_config()}")
PY
