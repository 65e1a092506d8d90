#!/usr/bin/env bash
# Session 33, GPU call after run-one-call.sh (if the device budget allows): block spans of the decode rows and of
# 1024^3 [k, n], from .gpu/lib-spans/ (libtileops built with spans_apply.py). Every block prints
# globaltimer stamps; span_summary.py lines them up against the call's span.
set -uo pipefail
source scripts/gpu/call_env.sh
summary=docs/perf/h200-spans-2026-12-07/span_summary.py
run() {  # label, then the CLI's shape arguments
  local label=$1
  shift
  LD_LIBRARY_PATH=$PWD/.gpu/lib-spans:$PWD/.gpu/lib timeout 90 .gpu/bin/tileops bench GemmFwdOp \
    "$@" --dtype bfloat16 --device cuda --iters 3 > "$work/spans-$label.txt" 2>&1
  echo "=== $label exit $? $(since)"
  grep -v '^SP' "$work/spans-$label.txt" | tail -2
  python3 $summary < "$work/spans-$label.txt" | tee "$out/spans-$label.md"
}
run 1x4096x4096 --shape a=1x4096 --shape b=4096x4096 --param trans_b=true
run 16x4096x7168 --shape a=16x7168 --shape b=4096x7168 --param trans_b=true
run 1024x1024x1024 --shape a=1024x1024 --shape b=1024x1024 --param trans_b=false
