#!/usr/bin/env bash
# Fills build/kernel-cache (git-ignored) with every CUDA kernel variant compiled for the GPU
# machine (`tileops precompile`, two processes), so that scripts/gpu/bundle.sh can carry it and a
# GPU call loads cubins instead of running NVRTC. Incremental: only kernels whose source changed
# are compiled again. The cache key holds the driver's version: GPU_DRIVER_VERSION (default
# 13000, the H200 machine's CUDA 13.0 driver) must be what the GPU machine's driver reports.
#   scripts/gpu/precompile.sh [BUILD_DIR]   (default build/default)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/default}
cache=build/kernel-cache
# Entries of edited kernels stay behind; start over before they outweigh what a call can carry.
if [ -d "$cache" ] && [ "$(du -sm "$cache" | cut -f1)" -gt 200 ]; then rm -rf "$cache"; fi
mkdir -p "$cache"
pids=()
for shard in 0 1; do
  TILEOPS_CACHE_DIR=$cache "$build"/tileops precompile --driver-version "${GPU_DRIVER_VERSION:-13000}" \
    --shard $shard/2 >"$cache/../precompile-$shard.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
tail -n1 "$cache"/../precompile-*.log
exit $status
