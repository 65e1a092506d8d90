// RotaryCosSinCacheFwdOp on CUDA: the op's frequencies travel by value in the kernel's
// parameters, so the launch needs no buffer and captures in a CUDA graph.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rotary_cos_sin_cache_fwd_op.hpp"

namespace tileops::cuda {
namespace {

constexpr int64_t kMaxFrequencies = 256;  // as rotary_cos_sin_cache.cu

KernelSpec cache_spec(DType positions) {
  return KernelSpec("position_encoding/rotary_cos_sin_cache.cu", "rotary_cos_sin_cache_kernel",
                    {KernelConstant::type_of("P", positions == DType::kInt32 ? "i32" : "i64")});
}

class RotaryCosSinCacheCuda final : public RotaryCosSinCacheKernel {
 public:
  using Interface = RotaryCosSinCacheKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  static std::optional<std::string> refusal(const RotaryCosSinCacheCall& call, const DeviceFacts&) {
    if (call.rotary_dim / 2 > kMaxFrequencies) {
      return fmt::format("rotary_dim {}: more than {} frequencies for the kernel's parameters",
                         call.rotary_dim, kMaxFrequencies);
    }
    return std::nullopt;
  }

  static BuildPlan entry_for(const RotaryCosSinCacheCall& call, const DeviceFacts&) {
    const DType p = call.position_dtype;
    return {std::string(dtype_name(p)), [p] { return std::make_unique<RotaryCosSinCacheCuda>(p); }};
  }

  explicit RotaryCosSinCacheCuda(DType positions) : fn_(cache_spec(positions)) {}

  void run(const RotaryCosSinCacheCall& call, const RotaryFrequencies& frequencies,
           const Tensor& positions, const Tensor& cos_sin_cache) override {
    if (call.tokens == 0) return;
    const int device = device_of(positions);
    std::array<double, kMaxFrequencies> inv_freq{};
    std::copy(frequencies.inv_freq.begin(), frequencies.inv_freq.end(), inv_freq.begin());
    const void* pp = positions.data();
    void* cp = cos_sin_cache.data();
    int64_t tokens = call.tokens;
    int rotary_dim = static_cast<int>(call.rotary_dim);
    double mscale = frequencies.mscale;
    launch_elementwise(fn_.get(device), device, tokens * (rotary_dim / 2),
                       {&pp, &cp, &tokens, &rotary_dim, &mscale, inv_freq.data()});
  }

 private:
  CudaFunction fn_;
};

const StaticKernelRegistration<RotaryCosSinCacheCuda> kRegistration("RotaryCosSinCacheFwdOp",
                                                                    "rotary_cos_sin_cache_cuda");
const bool kVariants = [] {
  register_cuda_variants("rotary_cos_sin_cache", [] {
    return std::vector<KernelSource>{cache_spec(DType::kInt32).source(),
                                     cache_spec(DType::kInt64).source()};
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
