#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried): where a decode row's time goes. ncu's
# warp state statistics and instruction counts over RMSNorm and softmax on one row of 4096 (bf16,
# caches flushed), and the SASS of the kernels that ran, from the kernel cache.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/gpu.txt"
stalls=smsp__inst_executed.sum,smsp__warps_launched.sum,sm__cycles_elapsed.max
for r in long_scoreboard barrier membar short_scoreboard wait no_instruction math_pipe_throttle \
  lg_throttle dispatch_stall drain branch_resolving mio_throttle; do
  stalls=$stalls,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
NCU_METRICS=$stalls timeout 120 bash scripts/gpu/rows_ncu_probe.sh "$out/ncu.csv" \
  "RMSNormFwdOp --shape x=1x4096 --shape weight=4096 --param normalized_shape=4096" \
  "SoftmaxFwdOp --shape x=1x4096 --param dim=-1"
python3 scripts/gpu/ncu_summary.py "$out/ncu.csv" "Duration" "Block Size" "Registers Per Thread" \
  "Warp Cycles Per Issued Instruction" | cut -c1-400
grep -E "inst_executed|warps_launched|cycles_elapsed|stalled" "$out/ncu.csv" | \
  awk -F'","' '{print $(NF-2), $NF}' | tr -d '"' | head -40
for f in $(find /tmp/tileops-cache -name '*.cubin' \( -name 'rms_norm*' -o -name 'softmax*' \)); do
  echo "### $f"; cuobjdump -sass "$f" | grep -E "Function|^\s+/\*[0-9a-f]{4}\*/" 
done > "$out/sass.txt" 2>&1
echo "=== sass $(grep -c '/\*[0-9a-f]\{4\}\*/' "$out/sass.txt") lines $(since)"; find /tmp/tileops-cache -name '*.cubin' | head
