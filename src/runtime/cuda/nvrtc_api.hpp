// NVRTC, loaded at run time (libnvrtc.so.13): kernels compile for the device's architecture at
// first launch, and for sm_90a in CI with no GPU.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "internal_api.hpp"
#include "runtime/cuda/kernel_cache.hpp"

namespace tileops::cuda {

struct CompileResult {
  std::vector<char> cubin;
  std::string log;
  double seconds = 0;
};

// Whether libnvrtc could be loaded; never throws.
TILEOPS_INTERNAL_API bool nvrtc_available() noexcept;
// "13.0" and so on. Throws RuntimeError when NVRTC is missing.
std::string nvrtc_version();
// Compiles one translation unit to a cubin for arch ("sm_90a"). Throws RuntimeError with the
// compiler log when compilation fails.
// headers are the named headers the source may #include.
TILEOPS_INTERNAL_API CompileResult nvrtc_compile(const std::string& name, const std::string& source,
                                                 const std::vector<std::string>& options,
                                                 const std::string& arch,
                                                 const std::vector<NamedHeader>& headers = {});

}  // namespace tileops::cuda
