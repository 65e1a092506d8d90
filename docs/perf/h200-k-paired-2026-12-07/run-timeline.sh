#!/usr/bin/env bash
# For a next session (GPU machine, .gpu/ carried, .gpu/lib-timeline/ = libtileops built with
# timeline.patch applied): where a narrow-N block's time goes. Times each narrow-N row with the CLI
# (cold L2, 3 calls) and summarises the sampled blocks' timelines (timeline_summary.py).
set -uo pipefail
source scripts/gpu/call_env.sh
dir=docs/perf/h200-k-paired-2026-12-07
for mnk in 512x256x7168 128x512x7168 1024x128x14336; do
  IFS=x read -r m n k <<<"$mnk"
  LD_LIBRARY_PATH=$PWD/.gpu/lib-timeline:$PWD/.gpu/lib timeout 60 .gpu/bin/tileops bench GemmFwdOp \
    --shape a=${m}x${k} --shape b=${n}x${k} --param trans_b=true --dtype bfloat16 --device cuda \
    --iters 3 > "$work/timeline-$mnk.txt" 2>&1
  echo "=== $mnk exit $?"
  grep -v '^TL' "$work/timeline-$mnk.txt" | tail -3
  python3 $dir/timeline_summary.py < "$work/timeline-$mnk.txt"
done
