#!/bin/sh
# `tileops precompile` compiles a chosen variant into an empty kernel cache without a GPU, and a
# second run finds it there. Exit 77 (skipped) where NVRTC is not installed.
#   precompile_fills_cache.sh TILEOPS_CLI
cli=$1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
export TILEOPS_CACHE_DIR="$dir"
only='^add_same_kernel_float_1$'
first=$("$cli" precompile --driver-version 13000 --only "$only" 2>&1)
rc=$?
case $first in *"NVRTC (libnvrtc.so) is not installed"*) exit 77 ;; esac
echo "$first"
[ "$rc" -eq 0 ] || { echo "first run: exit $rc"; exit 1; }
echo "$first" | grep -q "1 compiled" || { echo "first run compiled nothing"; exit 1; }
[ "$(ls "$dir" | grep -c '\.cubin$')" -eq 1 ] || {
  echo "expected one cubin (add_same_kernel_float_1's) in $dir:"; ls "$dir"; exit 1; }
second=$("$cli" precompile --driver-version 13000 --only "$only" 2>&1) || exit 1
echo "$second"
echo "$second" | grep -q "0 compiled.*1 already cached" || { echo "second run did not hit"; exit 1; }
