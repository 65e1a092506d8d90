// The rotary cos/sin cache on the CPU: each angle in float64 (positions reach hundreds of
// thousands of radians, where float32 angle arithmetic alone would lose ~p * 2^-24), stored as
// float32. One task per chunk of positions.
#include <cmath>

#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rotary_cos_sin_cache_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename P>
void build(const RotaryCosSinCacheCall& call, const RotaryFrequencies& f, const P* positions,
           float* cache) {
  const int64_t half = call.rotary_dim / 2;
  parallel_for(call.tokens, std::max<int64_t>(1, 4096 / std::max<int64_t>(half, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t t = begin; t < end; ++t) {
                   const double p = static_cast<double>(positions[t]);
                   float* row = cache + t * call.rotary_dim;
                   for (int64_t i = 0; i < half; ++i) {
                     const double angle = p * f.inv_freq[i];
                     row[i] = static_cast<float>(std::cos(angle) * f.mscale);
                     row[half + i] = static_cast<float>(std::sin(angle) * f.mscale);
                   }
                 }
               });
}

class RotaryCosSinCacheCpu final : public RotaryCosSinCacheKernel {
 public:
  using Interface = RotaryCosSinCacheKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const RotaryCosSinCacheCall& call, const RotaryFrequencies& frequencies,
           const Tensor& positions, const Tensor& cos_sin_cache) override {
    float* out = cos_sin_cache.data_as<float>();
    if (call.position_dtype == DType::kInt32) {
      build(call, frequencies, positions.data_as<const int32_t>(), out);
    } else {
      build(call, frequencies, positions.data_as<const int64_t>(), out);
    }
  }
};

const StaticKernelRegistration<RotaryCosSinCacheCpu> kRegistration("RotaryCosSinCacheFwdOp",
                                                                   "rotary_cos_sin_cache_cpu");

}  // namespace
}  // namespace tileops::cpu
