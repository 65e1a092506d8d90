#!/usr/bin/env bash
# Collects what the GPU machine needs from a build here into .gpu/ (git-ignored, carried by the
# device tool): the CUDA test suite, the CLI and benchmark, libtileops and the Debian shared
# libraries the GPU machine's image may lack; and, when the torch binding is built (preset
# `torch`, e.g. by scripts/run-torch-tests.sh), the tileops_torch package with its libraries
# into .gpu/torch/ (scripts/gpu/run-torch-suite.sh; the tests themselves are tracked files); and
# the kernel cache scripts/gpu/precompile.sh filled, packed (scripts/gpu/seed_cache.sh unpacks it).
#   scripts/gpu/bundle.sh [BUILD_DIR] [TORCH_BUILD_DIR]   (defaults: build/default build/torch)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/default}
torch_build=${2:-build/torch}
rm -rf .gpu && mkdir -p .gpu/bin .gpu/lib
cp "$build"/tests/tileops_cuda_tests "$build"/tileops .gpu/bin/
if [ -f "$build"/bench/tileops_host_path_bench ]; then cp "$build"/bench/tileops_host_path_bench .gpu/bin/; fi
cp -L "$build"/libtileops.so.0 .gpu/lib/
strip --strip-debug .gpu/lib/libtileops.so.0 .gpu/bin/*
for lib in libfmt.so.9 libbenchmark.so.1debian; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
  if [ -n "$path" ]; then cp -L "$path" .gpu/lib/; fi
done
cp bench/torch/torch_baseline.py bench/torch/kernel_timing.py .gpu/
package=$torch_build/bindings/torch/python/tileops_torch
if [ -f "$package/libtileops_torch.so" ]; then
  mkdir -p .gpu/torch/python .gpu/torch/test-hooks
  cp -rL "$package" .gpu/torch/python/
  rm -rf .gpu/torch/python/tileops_torch/__pycache__ .gpu/torch/python/tileops_torch/*/__pycache__
  cp "$torch_build"/bindings/torch/test-hooks/libtileops_torch_test_hooks.so .gpu/torch/test-hooks/
  strip --strip-debug .gpu/torch/python/tileops_torch/*.so* .gpu/torch/test-hooks/*.so
  echo "bundle: tileops_torch from $torch_build"
else
  echo "bundle: no torch binding in $torch_build (build it with scripts/run-torch-tests.sh)"
fi
if [ -d build/kernel-cache ]; then
  tar -cJf .gpu/kernel-cache.tar.xz -C build/kernel-cache --exclude='*.lock' .
  echo "bundle: kernel cache of $(ls build/kernel-cache | grep -c '\.cubin$') cubins (scripts/gpu/precompile.sh)"
fi
du -sh .gpu
