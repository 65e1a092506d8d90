#!/usr/bin/env bash
# Proves that an installed tileops is usable from outside the tree: installs a finished build
# into a temporary prefix, then configures, builds and runs examples/consumer and
# examples/acme_backend against it with find_package(tileops), and runs the installed `tileops`
# command with the acme backend loaded from TILEOPS_BACKENDS.
#
#   scripts/build-examples.sh [BUILD_DIR]
#
# BUILD_DIR (default: build) must already be configured and built. Set TILEOPS_KEEP_EXAMPLES=1
# to keep the temporary directory for inspection.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || {
  echo "build-examples: expected a configured and built tileops build directory, got '${1:-$root/build}'" >&2
  exit 2
}
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  echo "build-examples: expected $build/CMakeCache.txt (a configured build), found none" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tileops-examples.XXXXXX")
if [[ "${TILEOPS_KEEP_EXAMPLES:-0}" == 1 ]]; then
  echo "build-examples: keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi

configure_args=()
command -v ninja >/dev/null && configure_args+=(-G Ninja)
command -v ccache >/dev/null && configure_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

step() { echo "== $*"; }

step "install $build -> $work/prefix"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

for example in consumer acme_backend; do
  step "configure and build examples/$example"
  cmake -S "$root/examples/$example" -B "$work/$example" "${configure_args[@]}" \
    -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$work/$example" --parallel "${TILEOPS_JOBS:-2}"
done

step "run the consumer"
"$work/consumer/tileops_consumer"

step "run the acme demo (kernel on acme:0, whole-op target on acme:1)"
"$work/acme_backend/acme_demo" "$work/acme_backend/libtileops_acme.so"

step "installed tileops with the acme backend from TILEOPS_BACKENDS"
listing=$(TILEOPS_BACKENDS="$work/acme_backend/libtileops_acme.so" "$work/prefix/bin/tileops" list)
echo "$listing"
if ! grep -q "rms_norm_acme \[acme\]" <<<"$listing"; then
  echo "build-examples: expected 'tileops list' to show rms_norm_acme from the acme backend" >&2
  exit 1
fi
TILEOPS_BACKENDS="$work/acme_backend/libtileops_acme.so" "$work/prefix/bin/tileops" check

step "examples ok"
