#include "kernels/cuda/cuda_kernel.hpp"

#include <fmt/format.h>

#include "runtime/cuda/embedded_sources.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {

const char* cuda_type(DType dtype) {
  switch (dtype) {
    case DType::kBFloat16:
      return "bf16";
    case DType::kFloat16:
      return "f16";
    case DType::kFloat32:
      return "float";
    default:
      throw ContractError(fmt::format("no CUDA element type for {}", dtype_name(dtype)));
  }
}

std::string nvrtc_arch(int arch) {
  return arch >= 90 ? fmt::format("sm_{}a", arch) : fmt::format("sm_{}", arch);
}

CudaFunction::CudaFunction(KernelSource source, std::string entry)
    : source_(std::move(source)), entry_(std::move(entry)) {}

CUfunction CudaFunction::load(int device) {
  std::lock_guard lock(mutex_);
  if (device < 0 || device >= kMaxDevices) {
    throw ContractError(fmt::format("CUDA device index {} is out of range", device));
  }
  if (CUfunction fn = loaded_[device].load()) return fn;
  const DeviceFacts facts = read_device_facts(Device::cuda(device));
  int driver_version = 0;
  driver().cuDriverGetVersion(&driver_version);
  CachedBinary bin = cached_cubin(source_, nvrtc_arch(facts.arch), driver_version);
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, bin.cubin.data()), "cuModuleLoadData");
  CUfunction fn = nullptr;
  check(driver().cuModuleGetFunction(&fn, module, entry_.c_str()), "cuModuleGetFunction");
  // Every kernel may take all the dynamic shared memory the device allows, set once here so that
  // a launch makes no driver call but the launch.
  CUdevice dev = 0;
  int optin = 0, static_bytes = 0;
  check(driver().cuDeviceGet(&dev, device), "cuDeviceGet");
  check(driver().cuDeviceGetAttribute(&optin, kAttrMaxSharedMemoryPerBlockOptin, dev),
        "cuDeviceGetAttribute");
  check(driver().cuFuncGetAttribute(&static_bytes, kFuncAttrSharedSizeBytes, fn),
        "cuFuncGetAttribute");
  if (optin - static_bytes > 48 * 1024) {
    check(driver().cuFuncSetAttribute(fn, kFuncAttrMaxDynamicSharedSize, optin - static_bytes),
          "cuFuncSetAttribute");
  }
  loaded_[device].store(fn, std::memory_order_release);
  return fn;
}

namespace {

// A device fact read once per device: kernels read these on every launch.
template <int DeviceFacts::*kField>
int cached_fact(int device) {
  static std::array<std::atomic<int>, 16> values{};
  if (device >= 0 && device < 16) {
    if (const int v = values[device].load(std::memory_order_relaxed)) return v;
  }
  const int v = read_device_facts(Device::cuda(device)).*kField;
  if (device >= 0 && device < 16) values[device].store(v, std::memory_order_relaxed);
  return v;
}

}  // namespace

int sm_count(int device) {
  return cached_fact<&DeviceFacts::sm_count>(device);
}

int device_arch(int device) {
  return cached_fact<&DeviceFacts::arch>(device);
}

void launch(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
            unsigned smem, std::initializer_list<void*> args) {
  launch(fn, device, grid_x, grid_y, block, smem,
         std::span<void* const>(args.begin(), args.size()));
}

void launch(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
            unsigned smem, std::span<void* const> args) {
  if (grid_x == 0 || grid_y == 0) return;
  check(driver().cuLaunchKernel(fn, grid_x, grid_y, 1, block, 1, 1, smem,
                                static_cast<CUstream>(current_stream(device)),
                                const_cast<void**>(args.data()), nullptr),
        "cuLaunchKernel");
}

void launch_clusters(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                     unsigned cluster_x, std::initializer_list<void*> args) {
  launch_clusters(fn, device, grid_x, grid_y, block, cluster_x,
                  std::span<void* const>(args.begin(), args.size()));
}

void launch_clusters(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                     unsigned cluster_x, std::span<void* const> args) {
  if (grid_x == 0 || grid_y == 0) return;
  LaunchAttribute cluster{};
  cluster.id = kLaunchAttrClusterDimension;
  cluster.value.cluster_dim = {cluster_x, 1, 1};
  LaunchConfig config{grid_x,   grid_y, 1, block,
                      1,        1,      0, static_cast<CUstream>(current_stream(device)),
                      &cluster, 1};
  check(driver().cuLaunchKernelEx(&config, fn, const_cast<void**>(args.data()), nullptr),
        "cuLaunchKernelEx");
}

void launch_cooperative(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                        std::span<void* const> args) {
  if (grid_x == 0 || grid_y == 0) return;
  LaunchAttribute cooperative{};
  cooperative.id = kLaunchAttrCooperative;
  cooperative.value.cooperative = 1;
  LaunchConfig config{
      grid_x,       grid_y, 1, block, 1, 1, 0, static_cast<CUstream>(current_stream(device)),
      &cooperative, 1};
  check(driver().cuLaunchKernelEx(&config, fn, const_cast<void**>(args.data()), nullptr),
        "cuLaunchKernelEx (cooperative)");
}

void launch_cooperative(CUfunction fn, int device, unsigned grid_x, unsigned grid_y, unsigned block,
                        std::initializer_list<void*> args) {
  launch_cooperative(fn, device, grid_x, grid_y, block,
                     std::span<void* const>(args.begin(), args.size()));
}

CUresult try_launch_ex(CUfunction fn, int device, const LaunchGeometry& g,
                       std::span<void* const> args) {
  if (g.grid_x == 0 || g.grid_y == 0 || g.grid_z == 0) return kSuccess;
  std::array<LaunchAttribute, 2> attrs{};
  unsigned count = 0;
  if (g.cluster_x > 1) {
    attrs[count].id = kLaunchAttrClusterDimension;
    attrs[count++].value.cluster_dim = {g.cluster_x, 1, 1};
  }
  if (g.cooperative) {
    attrs[count].id = kLaunchAttrCooperative;
    attrs[count++].value.cooperative = 1;
  }
  LaunchConfig config{g.grid_x,
                      g.grid_y,
                      g.grid_z,
                      g.block,
                      1,
                      1,
                      g.smem,
                      static_cast<CUstream>(current_stream(device)),
                      count > 0 ? attrs.data() : nullptr,
                      count};
  return driver().cuLaunchKernelEx(&config, fn, const_cast<void**>(args.data()), nullptr);
}

void launch_ex(CUfunction fn, int device, const LaunchGeometry& g, std::span<void* const> args) {
  check(try_launch_ex(fn, device, g, args), "cuLaunchKernelEx");
}

void launch_ex(CUfunction fn, int device, const LaunchGeometry& g,
               std::initializer_list<void*> args) {
  launch_ex(fn, device, g, std::span<void* const>(args.begin(), args.size()));
}

int max_active_clusters(CUfunction fn, int device, const LaunchGeometry& g) {
  LaunchAttribute cluster{};
  cluster.id = kLaunchAttrClusterDimension;
  cluster.value.cluster_dim = {g.cluster_x, 1, 1};
  // The grid only has to be a whole number of clusters; the query answers for the device.
  const LaunchConfig config{g.cluster_x, 1, 1,      g.block,
                            1,           1, g.smem, static_cast<CUstream>(current_stream(device)),
                            &cluster,    1};
  int clusters = 0;
  check(driver().cuOccupancyMaxActiveClusters(&clusters, fn, &config),
        "cuOccupancyMaxActiveClusters");
  return clusters;
}

namespace {
struct VariantRegistry {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::function<std::vector<KernelSource>()>>> families;
};
VariantRegistry& variants() {
  static VariantRegistry v;
  return v;
}
}  // namespace

void register_cuda_variants(std::string family, std::function<std::vector<KernelSource>()> fn) {
  std::lock_guard lock(variants().mutex);
  variants().families.emplace_back(std::move(family), std::move(fn));
}

std::vector<KernelSource> all_cuda_variants() {
  std::vector<std::function<std::vector<KernelSource>()>> fns;
  {
    std::lock_guard lock(variants().mutex);
    for (auto& [name, fn] : variants().families) fns.push_back(fn);
  }
  std::vector<KernelSource> out;
  for (auto& fn : fns) {
    for (auto& s : fn()) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace tileops::cuda
