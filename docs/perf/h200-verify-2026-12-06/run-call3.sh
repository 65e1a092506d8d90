#!/usr/bin/env bash
# Call 3 (GPU machine, repository root, .gpu/ carried): the torch binding's suite on the GPU (the
# fast path's extension built for this machine's Python first) and the Llama-block example, the
# first since the decode-row kernels (39b83ed) and the one-pack variants; then the memory-bound
# rows of issue 9's sweep (scripts/gpu/rows_sweep.py, every default shape) in bfloat16.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
bash scripts/gpu/build-fast-call.sh > "$work/fast-call.log" 2>&1 || tail -3 "$work/fast-call.log"
OUT=$work timeout 300 bash scripts/gpu/run-torch-suite.sh > "$work/torch.txt" 2>&1
echo "=== torch suite exit $? $(since)"; tail -4 "$work/torch.txt"
cat "$work/fast-call.log" "$work/torch-env.txt" "$work/torch-tests.log" "$work/torch-example.log" \
  > "$out/torch-suite.log" 2>/dev/null
timeout $((570 - $(date +%s) + start)) python3 scripts/gpu/rows_sweep.py --iters 20 \
  --out "$work/rows" > "$out/rows-sweep.txt" 2>&1
echo "=== rows sweep exit $? $(since)"; cp "$work/rows/rows-sweep.md" "$out/" 2>/dev/null
grep -v "rows ran" "$out/rows-sweep.txt" | cut -c1-120 | head -80
