#!/usr/bin/env bash
# Call 3 (GPU machine, repository root, .gpu/ carried with the torch binding): the GEMM benchmark
# beside cuBLAS (bench/torch/gemm_bench.py: torch.profiler kernel records, L2 flushed, every
# output checked against torch's first), for issue 8's rows on this card; then the softmax,
# norm and gated-activation rows of issue 9's sweep (scripts/gpu/rows_sweep.py, default shapes).
set -uo pipefail
source scripts/gpu/call_env.sh
STEPS=bench STEP_TIMEOUT=${GEMM_TIMEOUT:-330} BENCH_ARGS="--iters 20" bash scripts/gpu/run-gemm.sh 2>&1 | tail -45
echo "=== gemm bench done $(since)"
rm -f "$out/bench.log"
timeout ${ROWS_TIMEOUT:-200} python3 scripts/gpu/rows_sweep.py --out "$work/rows" --iters 20 2>&1 | tail -95
cp "$work/rows/rows-sweep.md" "$out/rows-sweep-default.md" 2>/dev/null
echo "=== done $(since)"
