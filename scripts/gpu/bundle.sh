#!/usr/bin/env bash
# Collects what the GPU machine needs from a build here into .gpu/ (git-ignored, carried by the
# device tool): the CUDA test suite, the CLI and benchmark, libtileops and the Debian shared
# libraries the GPU machine's image may lack.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/default}
rm -rf .gpu && mkdir -p .gpu/bin .gpu/lib
cp "$build"/tests/tileops_cuda_tests "$build"/tileops .gpu/bin/
if [ -f "$build"/bench/tileops_host_path_bench ]; then cp "$build"/bench/tileops_host_path_bench .gpu/bin/; fi
cp -L "$build"/libtileops.so.0 .gpu/lib/
strip --strip-debug .gpu/lib/libtileops.so.0 .gpu/bin/*
for lib in libfmt.so.9 libbenchmark.so.1debian; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
  if [ -n "$path" ]; then cp -L "$path" .gpu/lib/; fi
done
cp bench/torch/torch_baseline.py .gpu/
du -sh .gpu
