#!/usr/bin/env bash
# Call 1 (GPU machine, repository root, .gpu/ carried; .gpu/lib-base/ holds libtileops of main
# 16caef8, .gpu/lib-p4/ the tree below with the wide staged shape at four packs a thread,
# .gpu/lib-small/ the tree with small-shape.patch (a third staged shape, 8 rows of 32 threads, for
# rows of 256 to 768 16-bit columns, which run flat on main); the CLI
# is the tree's own, the same ABI): what landed last session and never ran (the reordered flat
# rotary kernel, its 4096-item refusal, the staged kernel from 768 columns) and this tree's
# staged kernel reading shared memory as two aligned 16-byte loads a pack: the touched suites,
# memcheck and racecheck over them, gated rows timed on each library alternately, ncu of the
# staged kernel on each, the rotary benchmark, and ncu of the narrow-N GEMM rows beside cuBLAS.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
SHARDS=4 STEP_TIMEOUT=120 FILTER='*Rotary*:*ActAndMul*:*GatedActivations*:*UncappedCandidates*:*CudaElementwise*' \
  TOOLS='memcheck racecheck' \
  SANITIZER_FILTER='*GatedActivationsOffThePackTakeTheStagedKernel/*:*CudaRotary*bfloat16:*CudaRotaryMixed*' \
  OUT=$work/suite bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E 'timed out|compute-sanitizer|SUMMARY' "$work/suite.txt"
grep -E '^\[  FAILED|Failure|Expected|Which is' "$work/suite/cuda-tests.log" | sort -u | head -12
cp "$work/suite/cuda-tests.log" "$work/suite.txt" "$out/"
for excluded in rotary_embedding_flat_vec_cuda none; do
  echo "## rotary, excluded: $excluded" >> "$out/rotary.txt"
  TILEOPS_EXCLUDE_IMPLEMENTATIONS=$excluded timeout 40 python3 bench/torch/rotary_bench.py \
    --iters 30 2>&1 | grep -v -i warn >> "$out/rotary.txt"
done
echo "=== rotary $(since)"; cut -c1-150 "$out/rotary.txt"
sweep() {  # name, library folder, sweep args...
  local name=$1 lib=$2; shift 2
  LD_LIBRARY_PATH=$PWD/$lib:$PWD/.gpu/lib timeout 90 python3 scripts/gpu/rows_sweep.py \
    --out "$work/$name" --iters 30 "$@" > "$work/$name.log" 2>&1
  echo "=== $name exit $? $(since)"
  { echo "## $name"; echo; cat "$work/$name/rows-sweep.md"; echo; } >> "$out/sweeps.md"
}
gated=16384x769,65536x1025,4096x1537,4096x2047,2048x2049,2048x4095,4096x14337
for round in 1 2; do
  for lib in lib-base lib lib-p4; do
    sweep "gated-$lib-$round" ".gpu/$lib" --ops SiluAndMulFwdOp --shapes "$gated"
  done
done
small=8192x513,16384x769,4096x701,16384x385,65536x257
for round in 1 2; do
  for lib in lib lib-small; do
    sweep "small-$lib-$round" ".gpu/$lib" --ops SiluAndMulFwdOp --shapes "$small"
  done
done
grep -vE '^\s*$' "$out/sweeps.md" | cut -c1-160
export NCU_METRICS=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
NCU_METRICS=$NCU_METRICS,$(printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' long_scoreboard short_scoreboard mio_throttle lg_throttle barrier drain wait | sed 's/,$//')
for lib in lib-base lib; do
  LD_LIBRARY_PATH=$PWD/.gpu/$lib:$PWD/.gpu/lib bash scripts/gpu/rows_ncu_probe.sh "$out/ncu-staged-$lib.csv" \
    "SiluAndMulFwdOp --shape x=4096x28674" "SiluAndMulFwdOp --shape x=4096x3074"
  echo "=== ncu staged $lib $(since)"
  python3 scripts/gpu/ncu_summary.py "$out/ncu-staged-$lib.csv" Duration "DRAM Throughput" \
    "Achieved Occupancy" wavefronts_mem_shared bank_conflicts inst_executed "Registers Per" stalled \
    | cut -c1-400
done
unset NCU_METRICS
timeout 200 bash docs/perf/h200-narrow-staged-2026-12-07/run-next-ncu.sh
