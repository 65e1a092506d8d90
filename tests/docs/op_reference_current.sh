#!/bin/sh
# docs/ops.md is what tileops-opgen --docs writes from the manifest and headers today.
#   op_reference_current.sh OPGEN SOURCE_DIR SCRATCH_FILE
set -u
opgen=$1 src=$2 fresh=$3
"$opgen" --docs "$fresh" --header-root "$src/include" "$src"/manifest/*.yaml || exit 1
if ! cmp -s "$fresh" "$src/docs/ops.md"; then
  echo "docs/ops.md is stale: run scripts/dev/gen-op-docs.sh and commit the result"
  diff "$src/docs/ops.md" "$fresh" | head -20
  exit 1
fi
