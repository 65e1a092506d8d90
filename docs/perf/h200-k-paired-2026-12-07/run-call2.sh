#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried; .gpu/lib-base/ = libtileops of call 1's
# tree, whose serial split-K reduction loads every split's partial): the serial reduction that
# adds its own partial from registers and loads the others in one burst. The GEMM suites, memcheck
# and racecheck over the split-K tests, then the split tiles on main's library and on this tree's,
# alternately, on the narrow-N and split rows.
set -uo pipefail
source scripts/gpu/call_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
SHARDS=4 STEP_TIMEOUT=200 TOOLS='memcheck racecheck' \
  FILTER='*CudaTensorCoreGemm*:*ClusteredTilesSplitK*:*UncappedCandidates*:*CudaLinear*:*CudaBmm*:*GatedActivationsOffThePack*' \
  SANITIZER_FILTER='*CudaTensorCoreGemm.SplitK*/bfloat16:*SplitKTileCarriesTheTail/bfloat16' \
  OUT=$work/suite bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "=== suite exit $? $(since): $(grep -c '^\[       OK' "$work/suite/cuda-tests.log") OK," \
  "$(grep -c '^\[  FAILED  \]' "$work/suite/cuda-tests.log") FAILED lines"
grep -E 'timed out|compute-sanitizer|SUMMARY' "$work/suite.txt"
grep -E '^\[  FAILED|Failure|Expected|Which is|Value of' "$work/suite/cuda-tests.log" | sort -u | head -16
sweep() {  # library, shape set, tiles
  LD_LIBRARY_PATH=$PWD/.gpu/$1:$PWD/.gpu/lib timeout 100 python3 bench/torch/gemm_tile_sweep.py \
    --shapes "$2" --tiles "$3" --iters 20 --out "$work" > "$work/sweep-$1-$2.md" 2> "$work/sweep-$1-$2.err"
  echo "=== sweep $1 $2 exit $? $(since)"
  grep -E '^\| [0-9]' "$work/sweep-$1-$2.md"; tail -1 "$work/sweep-$1-$2.md"
  cat "$work/sweep-$1-$2.md" >> "$out/sweeps.md"
}
for lib in lib-base lib; do sweep $lib narrow-n 64x64x128/s6,64x128x64/s8; done
for lib in lib-base lib; do sweep $lib split 64x64x128/s6; done
for lib in lib lib-base; do
  [ $(( $(date +%s) - start )) -lt 300 ] && sweep $lib narrow-n 64x64x128/s6
done
