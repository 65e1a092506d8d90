#!/usr/bin/env bash
# Everything a GPU call needs, from a fresh checkout on the build machine: the Debian packages,
# the default build, the kernel cache for the GPU machine's driver (precompile.sh), the torch
# binding against the pinned torch (its virtual environment from the package index), then the
# bundle in .gpu/ (bundle.sh). With SPANS=<script>, also a libtileops built with that script's
# edit of the kernel sources applied (a diagnostic build, e.g.
# docs/perf/h200-cluster-k-2026-12-08/spans_apply.py) into .gpu/lib-spans/; the sources are
# restored and rebuilt after.
#   scripts/gpu/prepare.sh            (about 25 minutes on two cores from nothing)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build build/default -j "$(nproc)"
bash scripts/gpu/precompile.sh
venv=build/torch-venv
if ! "$venv/bin/python" -c "import torch" >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --progress-bar off --disable-pip-version-check "torch==2.11.0" numpy pytest
fi
cmake --preset torch >/dev/null
cmake --build --preset torch -j "$(nproc)"
spans_lib=""
if [ -n "${SPANS:-}" ]; then
  spans_lib=$(mktemp -d)
  python3 "$SPANS"
  cmake --build build/default -j "$(nproc)" --target tileops
  cp -L build/default/libtileops.so.0 "$spans_lib/"
  git checkout -- src/kernels
  cmake --build build/default -j "$(nproc)" --target tileops
fi
bash scripts/gpu/bundle.sh
if [ -n "$spans_lib" ]; then
  mkdir -p .gpu/lib-spans
  cp "$spans_lib/libtileops.so.0" .gpu/lib-spans/
  strip --strip-debug .gpu/lib-spans/libtileops.so.0
  rm -rf "$spans_lib"
  echo "prepare: .gpu/lib-spans from $SPANS"
fi
