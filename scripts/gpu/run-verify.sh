#!/usr/bin/env bash
# GPU session opener: the whole CUDA suite in shards, compute-sanitizer over the rotary kernels,
# the torch suite. Logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/out}
SHARDS=${SHARDS:-8} SANITIZER_FILTER='CudaRotary*:CudaRope*' bash scripts/gpu/run-suite.sh
s1=$?
bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
s2=$?
tail -15 "$out/torch-suite.txt"
echo "suite $s1 torch $s2"
