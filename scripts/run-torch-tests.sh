#!/usr/bin/env bash
# The PyTorch binding's tests: a virtual environment with torch from the Python package index
# (build/torch-venv, reused when it already holds the pinned torch), the binding built against it
# (CMake preset `torch`, in build/torch), then its test suite (bindings/torch/tests: opcheck, cold
# torch.compile(fullgraph=True), errors, the Llama-block example; the CUDA tests run only where
# torch sees a GPU). Called by scripts/run-tests.sh; runs on its own too.
set -euo pipefail
cd "$(dirname "$0")/.."
torch_version=2.11.0
venv=build/torch-venv
jobs=${TILEOPS_JOBS:-$(nproc)}
started=$SECONDS
stage() { echo "== torch binding: $* ($((SECONDS - started)) s)"; }

bash scripts/install-deps.sh
# The venv needs python3 and its venv module (a separate package on Debian); the eager fast
# path's extension needs Python's headers.
if ! python3 -c "import ensurepip, venv, os, sysconfig, sys; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
    python3 python3-venv python3-dev
fi

if ! "$venv/bin/python" -c "import torch, numpy, pytest, sys; sys.exit(torch.__version__.split('+')[0] != '$torch_version')" >/dev/null 2>&1; then
  stage "virtual environment with torch==$torch_version"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --progress-bar off --disable-pip-version-check "torch==$torch_version" numpy pytest
fi
"$venv/bin/python" -c "import torch; print('torch', torch.__version__, 'CUDA device:', torch.cuda.is_available())"

stage "build (preset torch)"
cmake --preset torch >/dev/null
cmake --build --preset torch -j "$jobs"

stage "tests"
# A fresh inductor cache: every compile in the suite is cold.
inductor_cache=$(mktemp -d "${TMPDIR:-/tmp}/tileops-inductor.XXXXXX")
trap 'rm -rf "$inductor_cache"' EXIT
TORCHINDUCTOR_CACHE_DIR=$inductor_cache PYTHONDONTWRITEBYTECODE=1 \
  PYTHONPATH=build/torch/bindings/torch/python \
  "$venv/bin/python" -m pytest bindings/torch/tests -q -rs -p no:cacheprovider
stage "passed"
