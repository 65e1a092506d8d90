#include "tileops/ops/position_encoding/rotary_cos_sin_cache_fwd_op.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tileops {
namespace {

// Llama 3.1: frequencies whose wavelength exceeds original_max_position / low_freq_factor are
// divided by factor, those under original_max_position / high_freq_factor kept, and those between
// blended linearly in original_max_position / wavelength.
void scale_llama3(const gen::RotaryCosSinCacheFwdOpParams& p, std::vector<double>& f) {
  const double old_context = static_cast<double>(p.original_max_position);
  const double low_wavelen = old_context / p.low_freq_factor;
  const double high_wavelen = old_context / p.high_freq_factor;
  for (double& v : f) {
    const double wavelen = 2 * std::numbers::pi / v;
    if (wavelen < high_wavelen) continue;
    if (wavelen > low_wavelen) {
      v /= p.factor;
      continue;
    }
    const double smooth = p.high_freq_factor == p.low_freq_factor
                              ? 0.0
                              : (old_context / wavelen - p.low_freq_factor) /
                                    (p.high_freq_factor - p.low_freq_factor);
    v = (1 - smooth) * v / p.factor + smooth * v;
  }
}

// The dim at which a frequency turns `rotations` times over original_max_position positions.
double yarn_correction_dim(double rotations, const gen::RotaryCosSinCacheFwdOpParams& p) {
  const double dim = static_cast<double>(*p.rotary_dim);
  return dim *
         std::log(static_cast<double>(p.original_max_position) /
                  (rotations * 2 * std::numbers::pi)) /
         (2 * std::log(p.base));
}

// YaRN: interpolated frequencies (divided by factor) below the ramp from low to high, the
// extrapolated ones above it, blended on it; cos and sin scaled by 0.1 ln(factor) + 1.
void scale_yarn(const gen::RotaryCosSinCacheFwdOpParams& p, RotaryFrequencies& r) {
  const double dim = static_cast<double>(*p.rotary_dim);
  const double low = std::max(std::floor(yarn_correction_dim(p.beta_fast, p)), 0.0);
  double high = std::min(std::ceil(yarn_correction_dim(p.beta_slow, p)), dim - 1);
  if (low == high) high += 0.001;
  for (size_t i = 0; i < r.inv_freq.size(); ++i) {
    const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    const double extrapolate = (1 - ramp) * p.extrapolation_factor;
    const double f = r.inv_freq[i];
    r.inv_freq[i] = f / p.factor * (1 - extrapolate) + f * extrapolate;
  }
  r.mscale = (p.factor <= 1 ? 1.0 : 0.1 * std::log(p.factor) + 1.0) * p.attn_factor;
}

}  // namespace

RotaryFrequencies rotary_frequencies(const gen::RotaryCosSinCacheFwdOpParams& p) {
  const int64_t dim = *p.rotary_dim;
  RotaryFrequencies r;
  r.inv_freq.resize(static_cast<size_t>(dim / 2));
  for (int64_t i = 0; i < dim / 2; ++i) {
    r.inv_freq[i] = std::pow(p.base, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
  }
  if (p.scaling == "llama3") scale_llama3(p, r.inv_freq);
  if (p.scaling == "yarn") scale_yarn(p, r);
  return r;
}

std::string RotaryCosSinCacheCall::describe() const {
  return fmt::format("{}, {}, {}, {}", describe_field("device", device),
                     describe_field("position_dtype", position_dtype),
                     describe_field("tokens", tokens), describe_field("rotary_dim", rotary_dim));
}

RotaryCosSinCacheFwdOp::RotaryCosSinCacheFwdOp(Params params, Target target)
    : RotaryCosSinCacheFwdOpBase(std::move(params), decl(), std::move(target)),
      frequencies_(rotary_frequencies(this->params())) {}

const OpDecl& RotaryCosSinCacheFwdOp::decl() {
  static const OpDecl kDecl{{&RotaryCosSinCacheKernel::info()}, {}, {}};
  return kDecl;
}

void RotaryCosSinCacheFwdOp::forward(const Tensor& positions, Tensor& cos_sin_cache) {
  const RotaryCosSinCacheCall call{
      {positions.device()}, positions.dtype(), positions.size(0), *params().rotary_dim};
  kernel_for<RotaryCosSinCacheKernel>(call).run(call, frequencies_, positions, cos_sin_cache);
}

}  // namespace tileops
