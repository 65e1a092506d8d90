#!/usr/bin/env bash
# Regenerates docs/ops.md, the op reference, from the manifest and the ops' headers' leading
# comments (tileops-opgen --docs). CI's test docs.op_reference_current fails while it is stale.
#   scripts/dev/gen-op-docs.sh [BUILD_DIR]   (default build/default, configured)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/default}
cmake --build "$build" --target tileops-opgen >/dev/null
"$build"/tileops-opgen --docs docs/ops.md --header-root include manifest/*.yaml
echo "wrote docs/ops.md"
