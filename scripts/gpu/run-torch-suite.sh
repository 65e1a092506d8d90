#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried (scripts/gpu/bundle.sh
# after the binding was built here): the PyTorch binding's test suite against python3's torch,
# CUDA included (opcheck and cold torch.compile(fullgraph=True) on CUDA, CUDA graph capture and
# replay, work on torch's current stream), then the Llama-block example on CPU and CUDA. Uses
# pytest when python3 has it, else the suite's own runner. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$PWD/.gpu/torch/python${PYTHONPATH:+:$PYTHONPATH}
export TILEOPS_TORCH_TEST_HOOKS=$PWD/.gpu/torch/test-hooks/libtileops_torch_test_hooks.so
export TILEOPS_CACHE_DIR=${TILEOPS_CACHE_DIR:-/tmp/tileops-cache}
source scripts/gpu/seed_cache.sh
source scripts/gpu/ensure_fast_call.sh
export PYTHONDONTWRITEBYTECODE=1
TORCHINDUCTOR_CACHE_DIR=$(mktemp -d /tmp/tileops-inductor.XXXXXX)
export TORCHINDUCTOR_CACHE_DIR
py=${PYTHON:-python3}
out=${OUT:-/tmp/out}
mkdir -p "$out"
if [ ! -f .gpu/torch/python/tileops_torch/libtileops_torch.so ]; then
  echo "run-torch-suite: .gpu/torch holds no tileops_torch; run scripts/run-torch-tests.sh (or" \
       "cmake --build --preset torch) and scripts/gpu/bundle.sh first" >&2
  exit 2
fi
"$py" - <<'PY' 2>&1 | tee "$out/torch-env.txt"
import sys, torch
print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda)
if not torch.cuda.is_available():
    sys.exit("run-torch-suite: torch sees no CUDA device")
print("device", torch.cuda.get_device_name(0))
PY
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
status=0
if "$py" -m pytest --version >/dev/null 2>&1; then
  "$py" -m pytest bindings/torch/tests -q -rs -p no:cacheprovider ${PYTEST_ARGS:-} 2>&1 |
    tee "$out/torch-tests.log" | tail -40
else
  echo "run-torch-suite: no pytest for $py; using bindings/torch/tests/run_tests.py"
  "$py" bindings/torch/tests/run_tests.py 2>&1 | tee "$out/torch-tests.log" |
    grep -v '^PASSED' | tail -60
fi
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
"$py" examples/torch_llama_block.py 2>&1 | tee "$out/torch-example.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "run-torch-suite: exit $status"
exit $status
