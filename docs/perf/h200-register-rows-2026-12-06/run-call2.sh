#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried): rows before and after, alternating, in one
# process tree. "Before" for the block-a-row kernels is TILEOPS_ROW_PACKS=1 (one pack a thread
# only: rows past 1024 packs fall to the generic kernel, as on main), for the gated activations
# TILEOPS_EXCLUDE_IMPLEMENTATIONS naming the staged kernels (the flat kernel, as on main). Then
# forced counts (2 and 4 packs a thread) on decode rows. bf16 unless named; tileops bench's own
# times (CUPTI kernel records, L2 flushed, median of 30, each row checked first).
set -uo pipefail
# ROUNDS (default 2): before/after rounds; 1 also skips the float32 and forced-2 rows.
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
norms=RMSNormFwdOp,LayerNormFwdOp,FusedAddRMSNormFwdOp,SoftmaxFwdOp,LogSoftmaxFwdOp
rows=1x4096,1x8192,1x8200,1x12288,1x16384,4x12288,16x16384
gated=1x14337,8x4097,2048x4095,4096x14337,65536x1025,4096x4096
excluded=silu_and_mul_staged_cuda
sweep() {  # name, env..., -- sweep args
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "=== $name $(since)"
  env "${envs[@]}" timeout "${SWEEP_TIMEOUT:-200}" python3 scripts/gpu/rows_sweep.py --out "$work/$name" "$@" 2>&1 | tail -60
  { echo "## $name"; echo; cat "$work/$name/rows-sweep.md"; echo; } >> "$out/sweeps.md"
}
for round in $(seq "${ROUNDS:-2}"); do
  sweep "rows-before-$round" TILEOPS_ROW_PACKS=1 -- --ops "$norms" --shapes "$rows"
  sweep "rows-after-$round" TILEOPS_NONE=1 -- --ops "$norms" --shapes "$rows"
done
[ "${ROUNDS:-2}" -ge 2 ] && sweep rows-f32-before TILEOPS_ROW_PACKS=1 -- --ops "$norms" --shapes 1x4096,1x8192,4x8192 --dtype float32
[ "${ROUNDS:-2}" -ge 2 ] && sweep rows-f32-after TILEOPS_NONE=1 -- --ops "$norms" --shapes 1x4096,1x8192,4x8192 --dtype float32
for round in $(seq "${ROUNDS:-2}"); do
  sweep "gated-before-$round" TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded -- --ops SiluAndMulFwdOp --shapes "$gated"
  sweep "gated-after-$round" TILEOPS_NONE=1 -- --ops SiluAndMulFwdOp --shapes "$gated"
done
[ "${ROUNDS:-2}" -ge 2 ] && sweep forced-2 TILEOPS_ROW_PACKS=2 -- --ops RMSNormFwdOp,LayerNormFwdOp,SoftmaxFwdOp --shapes 1x4096,1x8192
sweep forced-4 TILEOPS_ROW_PACKS=4 -- --ops RMSNormFwdOp,LayerNormFwdOp,SoftmaxFwdOp --shapes 1x4096,1x8192,1x12288,1x16384
echo "=== done $(since)"
