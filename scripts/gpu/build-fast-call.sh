#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ carried: builds the eager fast
# path's extension (bindings/torch/fast_call) for this machine's python3 and its torch, into the
# bundled package. The bundle's own build of it is for the build machine's Python (an extension
# module is tied to one Python version; libtileops_torch.so is not). Needs g++ and Python's
# headers, which the GPU image has.
set -euo pipefail
py=${PYTHON:-python3}
package=.gpu/torch/python/tileops_torch
[ -d "$package" ] || { echo "build-fast-call: no $package; run scripts/gpu/bundle.sh" >&2; exit 2; }
read -r torch_dir py_include suffix abi < <("$py" -c "
import os, sysconfig, torch
print(os.path.dirname(torch.__file__), sysconfig.get_paths()['include'],
      sysconfig.get_config_var('EXT_SUFFIX'), int(torch.compiled_with_cxx11_abi()))")
started=$SECONDS
g++ -std=c++20 -O2 -fPIC -shared -D_GLIBCXX_USE_CXX11_ABI="$abi" -I bindings/torch/src \
  -isystem "$torch_dir/include" -isystem "$torch_dir/include/torch/csrc/api/include" \
  -isystem "$py_include" bindings/torch/fast_call/fast_call_module.cpp \
  -L "$torch_dir/lib" -lc10 -ltorch_cpu -ltorch_python -o "$package/_fast_call$suffix"
echo "build-fast-call: $package/_fast_call$suffix in $((SECONDS - started)) s"
