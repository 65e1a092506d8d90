# Sourced by the GPU scripts that run the torch binding (GPU machine, repository root, .gpu/
# carried): the bundle's fast-path extension is built for the build machine's Python, which the
# GPU machine's python3 may not import (every call would then take torch.ops, and the fast-path
# tests fail). Builds it for this python3 (scripts/gpu/build-fast-call.sh) when it is missing.
if [ -d .gpu/torch/python/tileops_torch ]; then
  fast_call_suffix=$(${PYTHON:-python3} -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
  if [ ! -f ".gpu/torch/python/tileops_torch/_fast_call$fast_call_suffix" ]; then
    bash scripts/gpu/build-fast-call.sh >&2 || echo "ensure_fast_call: the build failed; calls take torch.ops" >&2
  fi
fi
