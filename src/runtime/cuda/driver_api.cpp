#include "runtime/cuda/driver_api.hpp"

#include <dlfcn.h>

#include <mutex>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

struct LoadedDriver {
  DriverApi api{};
  std::string error;  // why the driver is unusable ("" when it loaded)
};

template <typename Fn>
bool bind(void* lib, Fn& fn, const char* name, std::string& error) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (fn == nullptr && error.empty()) error = fmt::format("libcuda.so.1 lacks {}", name);
  return fn != nullptr;
}

LoadedDriver load() {
  LoadedDriver d;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    d.error = fmt::format(
        "the CUDA driver library libcuda.so.1 could not be loaded ({}); a CUDA "
        "device needs an NVIDIA driver",
        dlerror());
    return d;
  }
  DriverApi& a = d.api;
  std::string& e = d.error;
  bind(lib, a.cuInit, "cuInit", e);
  bind(lib, a.cuDriverGetVersion, "cuDriverGetVersion", e);
  bind(lib, a.cuDeviceGetCount, "cuDeviceGetCount", e);
  bind(lib, a.cuDeviceGet, "cuDeviceGet", e);
  bind(lib, a.cuDeviceGetAttribute, "cuDeviceGetAttribute", e);
  bind(lib, a.cuDeviceGetName, "cuDeviceGetName", e);
  bind(lib, a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", e);
  bind(lib, a.cuCtxSetCurrent, "cuCtxSetCurrent", e);
  bind(lib, a.cuCtxGetCurrent, "cuCtxGetCurrent", e);
  bind(lib, a.cuCtxSynchronize, "cuCtxSynchronize", e);
  bind(lib, a.cuMemAllocAsync, "cuMemAllocAsync", e);
  bind(lib, a.cuMemFreeAsync, "cuMemFreeAsync", e);
  bind(lib, a.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", e);
  bind(lib, a.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", e);
  bind(lib, a.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", e);
  bind(lib, a.cuMemsetD8Async, "cuMemsetD8Async", e);
  bind(lib, a.cuStreamCreate, "cuStreamCreate", e);
  bind(lib, a.cuStreamSynchronize, "cuStreamSynchronize", e);
  bind(lib, a.cuStreamBeginCapture, "cuStreamBeginCapture_v2", e);
  bind(lib, a.cuStreamEndCapture, "cuStreamEndCapture", e);
  bind(lib, a.cuStreamIsCapturing, "cuStreamIsCapturing", e);
  bind(lib, a.cuLaunchKernelEx, "cuLaunchKernelEx", e);
  bind(lib, a.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", e);
  bind(lib, a.cuGraphLaunch, "cuGraphLaunch", e);
  bind(lib, a.cuGraphExecDestroy, "cuGraphExecDestroy", e);
  bind(lib, a.cuGraphDestroy, "cuGraphDestroy", e);
  bind(lib, a.cuModuleLoadData, "cuModuleLoadData", e);
  bind(lib, a.cuModuleGetFunction, "cuModuleGetFunction", e);
  bind(lib, a.cuFuncSetAttribute, "cuFuncSetAttribute", e);
  bind(lib, a.cuFuncGetAttribute, "cuFuncGetAttribute", e);
  bind(lib, a.cuOccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters", e);
  bind(lib, a.cuLaunchKernel, "cuLaunchKernel", e);
  bind(lib, a.cuEventCreate, "cuEventCreate", e);
  bind(lib, a.cuEventRecord, "cuEventRecord", e);
  bind(lib, a.cuEventSynchronize, "cuEventSynchronize", e);
  bind(lib, a.cuEventElapsedTime, "cuEventElapsedTime", e);
  bind(lib, a.cuEventDestroy, "cuEventDestroy_v2", e);
  bind(lib, a.cuGetErrorString, "cuGetErrorString", e);
  bind(lib, a.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", e);
  if (!e.empty()) return d;
  if (const CUresult r = a.cuInit(0); r != kSuccess) {
    const char* text = nullptr;
    a.cuGetErrorString(r, &text);
    e = fmt::format("cuInit failed: {} ({}); no usable CUDA device", text ? text : "unknown", r);
  }
  return d;
}

const LoadedDriver& loaded() {
  static const LoadedDriver d = load();
  return d;
}

}  // namespace

const DriverApi& driver() {
  const LoadedDriver& d = loaded();
  if (!d.error.empty()) throw RuntimeError("CUDA: " + d.error);
  return d.api;
}

bool driver_available() noexcept {
  try {
    const LoadedDriver& d = loaded();
    if (!d.error.empty()) return false;
    int count = 0;
    return d.api.cuDeviceGetCount(&count) == kSuccess && count > 0;
  } catch (...) {
    return false;
  }
}

int installed_driver_version() noexcept {
  try {
    const LoadedDriver& d = loaded();
    int version = 0;
    if (!d.error.empty() || d.api.cuDriverGetVersion(&version) != kSuccess) return 0;
    return version;
  } catch (...) {
    return 0;
  }
}

void check(CUresult result, const char* what) {
  if (result == kSuccess) return;
  const char* text = nullptr;
  if (loaded().error.empty()) loaded().api.cuGetErrorString(result, &text);
  throw RuntimeError(fmt::format("CUDA: {}: {} ({})", what, text ? text : "unknown error", result));
}

}  // namespace tileops::cuda
