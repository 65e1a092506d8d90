#!/usr/bin/env bash
# ncu over single calls of the row kernels (issue 9, item 3), to see what holds a row back: the
# kernel's duration, registers and occupancy, DRAM throughput and the warp stall reasons. Each
# probe is one `tileops bench` call (the first launch of the op's kernel is the check run and is
# skipped; the second is profiled with the caches flushed).
# NCU_METRICS (a comma-separated list) adds metrics to the sections, e.g. the stall reasons
# smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio.
#   scripts/gpu/rows_ncu_probe.sh OUT_CSV "OP --shape ... [--param ...]" ...
set -uo pipefail
out=$1
shift
: >"$out"
for probe in "$@"; do
  read -r op rest <<<"$probe"
  echo "### $probe" >>"$out"
  # shellcheck disable=SC2086
  timeout 60 ncu --csv --page details --cache-control all --clock-control none \
    --kernel-name-base function -k 'regex:(softmax|norm|silu|rotary|act_and_mul)' --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    --section MemoryWorkloadAnalysis ${NCU_METRICS:+--metrics "$NCU_METRICS"} \
    .gpu/bin/tileops bench "$op" $rest --dtype "${DTYPE:-bfloat16}" --device cuda --iters 2 \
    >>"$out" 2>>"$out.err"
done
