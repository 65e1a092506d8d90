#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried): the eager fast path. Builds its extension
# for the machine's python3, runs the torch suite (the fast-path tests included, the CUDA one
# among them) and the host path twice (C++ floor, then tileops_torch with the fast path on and,
# in a second process, off).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out" "$work"
start=$(date +%s)
el() { echo "$(( $(date +%s) - start )) s"; }
bash scripts/gpu/build-fast-call.sh 2>&1 | tail -3
python3 -c "import tileops_torch; print('fast path', tileops_torch.fast_path_status())"
OUT=$work timeout 120 bash scripts/gpu/run-torch-suite.sh > "$work/torch.txt" 2>&1
echo "=== torch suite exit $? after $(el)"; grep -E "passed|failed|FAILED|Error" "$work/torch.txt" | head -20
cp "$work/torch-tests.log" "$out/" 2>/dev/null
OUT=$work bash scripts/gpu/run-host-path.sh > "$work/host.txt" 2>&1
cp "$work/host-path.txt" "$work/torch-host-path.txt" "$work/torch-host-path.json" "$out/" 2>/dev/null
echo "=== host path after $(el)"; cat "$work/host.txt"
TILEOPS_TORCH_FAST_PATH=0 python3 bench/torch/host_path.py --out "$out/torch-host-path-off.json" 2>&1 | tee "$out/torch-host-path-off.txt"
echo "=== done after $(el)"
