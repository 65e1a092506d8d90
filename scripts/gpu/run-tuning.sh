#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried: `tileops warmup` on a cold
# and then a warm kernel cache, `tileops tune --all` twice (timed, then read from the store), and
# `tileops bench --all` untuned and
# `--tuned`. The tuning store is written under $OUT/tuning.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
out=${OUT:-/tmp/out}
mkdir -p "$out"
export TILEOPS_CACHE_DIR=${TILEOPS_CACHE_DIR:-/tmp/tileops-warmup-cache}
export TILEOPS_TUNING_DIR=$out/tuning
rm -rf "$TILEOPS_CACHE_DIR"
for pass in cold warm; do
  start=$(date +%s%N)
  .gpu/bin/tileops warmup --all --device cuda:0 2>"$out/warmup-$pass.log"
  rc=$?
  echo "warmup ($pass cache): exit $rc in $(( ($(date +%s%N) - start) / 1000000 )) ms"
  tail -1 "$out/warmup-$pass.log"
done
for pass in first second; do
  .gpu/bin/tileops tune --all --device cuda:0 >"$out/tune-$pass.txt" 2>"$out/tune-$pass.log"
  echo "tune ($pass): exit $?"
  tail -1 "$out/tune-$pass.log"
done
if [ "${BENCH:-1}" = 1 ]; then
  .gpu/bin/tileops bench --all --device cuda:0 --iters ${ITERS:-30} \
    --json "$out/tileops-untuned.json" >"$out/bench-untuned.txt" 2>&1
  echo "bench exit $?"
  .gpu/bin/tileops bench --all --tuned --device cuda:0 --iters ${ITERS:-30} \
    --json "$out/tileops-tuned.json" >"$out/bench-tuned.txt" 2>&1
  echo "bench --tuned exit $?"
fi
