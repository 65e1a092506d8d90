# Sourced by a GPU call's script (GPU machine, repository root, .gpu/ carried): the bundle's
# library and package paths, a kernel cache outside the tree, $out (the tool's $OUT) and $work
# for logs, and `since` for the seconds since the call began. The bundle's kernel cache seeds it.
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
since() { echo "after $(( $(date +%s) - start )) s"; }
source scripts/gpu/seed_cache.sh
source scripts/gpu/ensure_fast_call.sh
