// Acme: an out-of-tree tileops backend, as a third party would write one. Built as a shared
// library, it exports tileops_backend_entry_v1(); tileops loads it from TILEOPS_BACKENDS (or
// tileops::load_backend) and its register_backend adds, through the C++ API:
//
//   * a device type "acme" with a device-facts provider, an allocator and a copier (so
//     Tensor::copy_from moves tensors between the host and acme). Acme memory is host memory in
//     this demo, so its kernels are plain loops. acme:0 is a v1 board; acme:1 is a v2 board with
//     a graph engine that runs whole ops;
//   * "rms_norm_acme", an implementation of RMSNormFwdOp's "rms_norm" kernel interface for acme
//     devices: dispatch picks it for RMSNormFwdOp calls on acme tensors;
//   * a target "acme-target": a detector claiming acme devices with a graph engine, and a kernel
//     builder serving RMSNormFwdOp whole there (the takeover path).
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "tileops/core/allocator.hpp"
#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/target.hpp"
#include "tileops/ops/eps.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace acme {
namespace {

using tileops::Device;
using tileops::DeviceType;
using tileops::DType;
using tileops::Tensor;

constexpr int kDeviceCount = 2;
constexpr int kGraphEngineArch = 2;  // boards from v2 on run whole ops in their graph engine
constexpr const char* kTarget = "acme-target";

DeviceType acme_type() {
  static const DeviceType type = tileops::device_type_from_name("acme");
  return type;
}

void require_board(Device device) {
  if (device.type != acme_type() || device.index < 0 || device.index >= kDeviceCount) {
    throw tileops::ValueError(fmt::format("acme: expected a device acme:0 .. acme:{}, got {}",
                                          kDeviceCount - 1, device.str()));
  }
}

tileops::DeviceFacts board_facts(Device device) {
  require_board(device);
  tileops::DeviceFacts facts;
  facts.arch = device.index == 0 ? 1 : 2;
  facts.sm_count = 4;
  facts.calibration = fmt::format("acme-v{}", facts.arch);
  facts.smem_budget = 64 * 1024;
  return facts;
}

// Acme memory is host memory here; a real backend would talk to its driver.
class AcmeAllocator final : public tileops::Allocator {
 public:
  void* allocate(size_t nbytes, Device device) override {
    require_board(device);
    const size_t rounded = (nbytes + 63) / 64 * 64;
    void* ptr = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (ptr == nullptr) {
      throw tileops::RuntimeError(
          fmt::format("acme allocator: could not allocate {} bytes on {}", nbytes, device.str()));
    }
    return ptr;
  }
  void deallocate(void* ptr, size_t, Device) noexcept override { std::free(ptr); }
};

// y[r, :] = x[r, :] / sqrt(mean(x[r, :]^2) + eps) * w, accumulated in double.
template <typename T>
void rms_norm_rows(const T* x, const T* w, T* y, int64_t rows, int64_t n, double eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double v = static_cast<float>(xr[i]);
      sum += v * v;
    }
    const double inv = 1.0 / std::sqrt(sum / static_cast<double>(n) + eps);
    T* yr = y + r * n;
    for (int64_t i = 0; i < n; ++i) {
      const double v = static_cast<float>(xr[i]) * inv * static_cast<float>(w[i]);
      yr[i] = T(static_cast<float>(v));
    }
  }
}

void rms_norm(DType dtype, const Tensor& x, const Tensor& weight, const Tensor& output,
              int64_t rows, int64_t n, double eps) {
  tileops::visit_float_dtype(dtype, [&]<DType D>() {
    using T = tileops::element_t<D>;
    rms_norm_rows<T>(x.data_as<const T>(), weight.data_as<const T>(), output.data_as<T>(), rows, n,
                     eps);
  });
}

// The kernel-interface path: one implementation of "rms_norm" for acme devices.
class AcmeRMSNormKernel final : public tileops::RMSNormKernel {
 public:
  using Interface = tileops::RMSNormKernel;
  static inline const std::array<DeviceType, 1> devices{acme_type()};

  void run(const tileops::RMSNormCall& call, const Tensor& x, const Tensor& weight,
           const Tensor& output, const Tensor& /*workspace*/) override {
    rms_norm(call.dtype, x, weight, output, call.rows, call.n, call.eps);
  }
};

// The takeover path: the graph engine runs the whole op.
class GraphRMSNorm final : public tileops::TargetKernel {
 public:
  GraphRMSNorm(DType dtype, int64_t rows, int64_t n, double eps)
      : dtype_(dtype), rows_(rows), n_(n), eps_(eps) {}
  void run(std::span<const Tensor> inputs, std::span<const Tensor> outputs) override {
    rms_norm(dtype_, inputs[0], inputs[1], outputs[0], rows_, n_, eps_);
  }
  std::string config() const override {
    return fmt::format("acme graph: rows={} n={} eps={}", rows_, n_, eps_);
  }

 private:
  DType dtype_;
  int64_t rows_, n_;
  double eps_;
};

bool has_graph_engine(Device device) {
  return device.type == acme_type() && tileops::read_device_facts(device).arch >= kGraphEngineArch;
}

std::unique_ptr<tileops::TargetKernel> build_graph_rms_norm(
    std::span<const std::optional<tileops::TensorDesc>> inputs, const tileops::ParamMap& params) {
  if (inputs.size() != 2 || !inputs[0] || !inputs[1]) return nullptr;
  const tileops::TensorDesc& x = *inputs[0];
  if (x.device.type != acme_type() || !tileops::is_floating(x.dtype)) return nullptr;
  const int64_t n = inputs[1]->shape.numel();
  const tileops::ParamValue* eps = tileops::find_param(params, "eps");
  const std::optional<double> given = eps != nullptr && std::holds_alternative<double>(*eps)
                                          ? std::optional(std::get<double>(*eps))
                                          : std::nullopt;
  return std::make_unique<GraphRMSNorm>(x.dtype, n == 0 ? 0 : x.shape.numel() / n, n,
                                        tileops::resolve_eps(given, x.dtype));
}

// Host <-> acme and acme <-> acme copies; a real backend would use its DMA engine.
void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t bytes) {
  for (Device d : {dst_device, src_device}) {
    if (d.type != tileops::kCPU) require_board(d);
  }
  std::memcpy(dst, src, bytes);
}

AcmeAllocator g_allocator;

int register_backend(char* error, uint64_t error_size) {
  try {
    const DeviceType type = acme_type();
    tileops::set_device_facts_provider(type, &board_facts);
    tileops::register_kernel_type<AcmeRMSNormKernel>("RMSNormFwdOp", "rms_norm_acme").release();
    tileops::register_detector(kTarget, &has_graph_engine).release();
    tileops::register_kernel_builder("RMSNormFwdOp", kTarget, &build_graph_rms_norm).release();
    // A failing load rolls all of these back, the allocator and the copier included.
    tileops::set_allocator(type, &g_allocator);
    tileops::set_device_copier(type, &copy_bytes);
    return 0;
  } catch (const std::exception& e) {
    std::snprintf(error, error_size, "%s", e.what());
    return 1;
  }
}

}  // namespace
}  // namespace acme

extern "C" __attribute__((visibility("default"))) const TileopsBackendEntryV1*
tileops_backend_entry_v1() {
  static const TileopsBackendEntryV1 kEntry{TILEOPS_BACKEND_ABI_VERSION, "acme",
                                            &acme::register_backend};
  return &kEntry;
}
