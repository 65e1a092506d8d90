#!/usr/bin/env bash
# On the GPU machine, from the repository root: builds the sweep, runs it under ncu, writes $OUT.
set -euo pipefail
dir=docs/perf/h200-gemv-stream-2026-12-01
g++ -O2 -std=c++17 $dir/stream_sweep.cpp -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcuda -lnvrtc -lpthread -o /tmp/stream_sweep
ncu --csv --metrics gpu__time_duration.sum --cache-control all --clock-control none \
  --log-file "$OUT/ncu.csv" /tmp/stream_sweep "${REPS:-5}" > "$OUT/sweep.txt"
tail -1 "$OUT/sweep.txt"
python3 $dir/parse_sweep.py "$OUT/sweep.txt" "$OUT/ncu.csv" | tee "$OUT/table.md"
