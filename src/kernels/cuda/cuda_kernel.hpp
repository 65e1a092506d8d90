// Host side of a tileops CUDA kernel: the specialised source, compiled at first launch through
// the disk cache, loaded once per device, launched on the current stream.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <initializer_list>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "internal_api.hpp"
#include "kernels/cuda/host/kernel_spec.hpp"
#include "runtime/cuda/driver_api.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "tileops/core/dtype.hpp"
#include "tileops/core/tensor.hpp"

namespace tileops::cuda {

// The CUDA element type name for a dtype ("bf16", "f16", "float").
const char* cuda_type(DType dtype);

// NVRTC target for an SM version: "sm_90a" for Hopper (wgmma and friends), "sm_<arch>" else.
std::string nvrtc_arch(int arch);

// A __global__ function of one specialised source, loaded lazily per device.
class TILEOPS_INTERNAL_API CudaFunction {
 public:
  CudaFunction(KernelSource source, std::string entry);
  explicit CudaFunction(const KernelSpec& spec) : CudaFunction(spec.source(), spec.entry()) {}
  // Compiles (or reads the disk cache) and loads on first use for device; later calls are one
  // atomic load.
  CUfunction get(int device) {
    if (device >= 0 && device < kMaxDevices) {
      if (CUfunction fn = loaded_[device].load(std::memory_order_acquire)) return fn;
    }
    return load(device);
  }
  const KernelSource& source() const { return source_; }

 private:
  static constexpr int kMaxDevices = 16;
  CUfunction load(int device);
  KernelSource source_;
  std::string entry_;
  std::mutex mutex_;
  std::array<std::atomic<CUfunction>, kMaxDevices> loaded_{};
};

// Launches on device's current stream; args are pointers to the argument values.
void launch(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
            unsigned smem, std::initializer_list<void*> args);
// The same with an argument list built at run time (a row kernel's tensors, then its scalars).
void launch(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
            unsigned smem, std::span<void* const> args);

// Launches a grid of thread-block clusters of cluster_x blocks along x (Hopper and later), on
// device's current stream.
void launch_clusters(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                     unsigned cluster_x, std::initializer_list<void*> args);
void launch_clusters(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                     unsigned cluster_x, std::span<void* const> args);

// Launches cooperatively: every block of the grid is resident at once, so its blocks may wait
// on each other (the driver refuses a grid larger than the device holds at once).
void launch_cooperative(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                        std::initializer_list<void*> args);
void launch_cooperative(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                        std::span<void* const> args);

// A launch of any shape: dynamic shared memory beyond 48 KiB is enabled on the function first,
// cluster_x > 1 launches clusters of that many blocks along x, and cooperative launches a grid
// whose blocks are all resident at once (or none: the driver refuses it).
struct LaunchGeometry {
  unsigned grid_x = 1, grid_y = 1;
  unsigned block = 128;
  unsigned smem = 0;
  unsigned cluster_x = 1;
  unsigned grid_z = 1;
  bool cooperative = false;
};
TILEOPS_INTERNAL_API void launch_ex(CUfunction fn, int device, const LaunchGeometry& g,
                                    std::initializer_list<void*> args);
TILEOPS_INTERNAL_API void launch_ex(CUfunction fn, int device, const LaunchGeometry& g,
                                    std::span<void* const> args);
// launch_ex that hands the driver's answer back instead of throwing, for a caller with a
// fallback (a cooperative grid the device cannot hold at once: kCooperativeLaunchTooLarge).
CUresult try_launch_ex(CUfunction fn, int device, const LaunchGeometry& g,
                       std::span<void* const> args);

// How many clusters of g's shape (block, shared memory, cluster_x) can run on the device at once:
// fewer than sm_count / cluster_x where a GPC's SMs do not divide into whole clusters. A
// persistent grid of more clusters than this would run its last ones after the others finish.
int max_active_clusters(CUfunction fn, int device, const LaunchGeometry& g);

// The SM count of a device, read once (kernels size grid-stride launches with it).
int sm_count(int device);
// The device's SM version (90 for Hopper), read once.
int device_arch(int device);

inline int device_of(const Tensor& t) {
  return t.device().index;
}
inline bool aligned16(const void* p) {
  return (reinterpret_cast<uintptr_t>(p) & 15u) == 0;
}

// Every kernel variant tileops can build, for the CI test that compiles them all for sm_90a.
void register_cuda_variants(std::string family,
                            std::function<std::vector<KernelSource>()> variants);
TILEOPS_INTERNAL_API std::vector<KernelSource> all_cuda_variants();

}  // namespace tileops::cuda
