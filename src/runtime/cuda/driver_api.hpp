// The CUDA driver API, loaded at run time from libcuda.so.1: tileops builds and runs its CPU
// paths on machines with no driver. Types are declared here (ABI-compatible with cuda.h) so the
// build needs no CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "internal_api.hpp"

namespace tileops::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphExec = struct CUgraphExec_st*;
using CUdeviceptr = uint64_t;

inline constexpr CUresult kSuccess = 0;
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: the grid does not fit the device at once (MPS limits).
inline constexpr CUresult kCooperativeLaunchTooLarge = 720;
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrL2CacheSize = 38;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kAttrMaxSharedMemoryPerBlockOptin = 97;
inline constexpr int kFuncAttrSharedSizeBytes = 1;  // static shared memory of a kernel
inline constexpr int kFuncAttrMaxDynamicSharedSize = 8;
inline constexpr unsigned kStreamNonBlocking = 1;
inline constexpr int kCaptureModeThreadLocal = 1;

inline constexpr int kLaunchAttrCooperative = 2;       // CU_LAUNCH_ATTRIBUTE_COOPERATIVE
inline constexpr int kLaunchAttrClusterDimension = 4;  // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION

// ABI-compatible with CUlaunchAttribute and CUlaunchConfig of cuda.h (CUDA 12 and later).
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } cluster_dim;
    int cooperative;
  } value;
};
struct LaunchConfig {
  unsigned grid_x, grid_y, grid_z;
  unsigned block_x, block_y, block_z;
  unsigned shared_bytes;
  CUstream stream;
  LaunchAttribute* attrs;
  unsigned num_attrs;
};

static_assert(sizeof(LaunchAttribute) == 72 && sizeof(LaunchConfig) == 56 &&
              offsetof(LaunchConfig, stream) == 32 && offsetof(LaunchConfig, attrs) == 40);

// ABI-compatible with CUtensorMap of cuda.h: 128 opaque bytes.
struct alignas(128) TensorMapBits {
  uint64_t opaque[16];
};

struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetCurrent)(CUcontext*);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAllocAsync)(CUdeviceptr*, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream*, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph*);
  CUresult (*cuStreamIsCapturing)(CUstream, int*);
  CUresult (*cuLaunchKernelEx)(const LaunchConfig*, CUfunction, void**, void**);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec*, CUgraph, unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuFuncGetAttribute)(int*, int, CUfunction);
  CUresult (*cuOccupancyMaxActiveClusters)(int*, CUfunction, const LaunchConfig*);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void**, void**);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorString)(CUresult, const char**);
  // Enum arguments (data type, interleave, swizzle, L2 promotion, OOB fill) as ints.
  CUresult (*cuTensorMapEncodeTiled)(TensorMapBits*, int, unsigned, void*, const uint64_t*,
                                     const uint64_t*, const unsigned*, const unsigned*, int, int,
                                     int, int);
};

// The loaded driver, initialised once (cuInit). Throws RuntimeError naming what is missing when
// libcuda.so.1 cannot be loaded or initialised: that happens only when a CUDA device is used.
const DriverApi& driver();
// Whether a driver and at least one device are present; never throws.
bool driver_available() noexcept;
// The installed driver's CUDA version (cuDriverGetVersion: 13000 for CUDA 13.0), or 0 when no
// driver loads; needs no device, never throws.
TILEOPS_INTERNAL_API int installed_driver_version() noexcept;

// Throws RuntimeError "<what>: <CUDA error text> (<code>)" unless result is success.
void check(CUresult result, const char* what);

// Makes device's primary context current on the calling thread (for libraries that act on the
// current device, such as cuBLASLt).
void make_device_current(int device);

}  // namespace tileops::cuda
