// Float64 reference of RotaryCosSinCacheFwdOp, written from the formulas in the manifest's
// comment independently of the op's rotary_frequencies(), and its inputs: positions uniform in
// [0, 2 * rows) (any position may be asked for).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult rotary_cos_sin_cache_reference(const ParamMap& params, std::span<const Tensor> in) {
  const int64_t dim = param_int(params, "rotary_dim"), half = dim / 2;
  const double base = param_double(params, "base"), factor = param_double(params, "factor");
  const std::string scaling = param_string(params, "scaling");
  const double old_context = static_cast<double>(param_int(params, "original_max_position"));
  std::vector<double> freq(static_cast<size_t>(half));
  double mscale = 1.0;
  for (int64_t i = 0; i < half; ++i) freq[i] = 1.0 / std::pow(base, double(2 * i) / double(dim));
  if (scaling == "llama3") {
    const double lo = param_double(params, "low_freq_factor");
    const double hi = param_double(params, "high_freq_factor");
    for (double& f : freq) {
      const double wavelen = 2 * std::numbers::pi / f;
      const double smooth = hi == lo ? 0.0 : (old_context / wavelen - lo) / (hi - lo);
      if (wavelen > old_context / lo) {
        f = f / factor;
      } else if (wavelen >= old_context / hi) {
        f = (1 - smooth) * f / factor + smooth * f;
      }
    }
  } else if (scaling == "yarn") {
    auto correction = [&](double rotations) {
      return double(dim) * std::log(old_context / (rotations * 2 * std::numbers::pi)) /
             (2 * std::log(base));
    };
    const double low = std::max(std::floor(correction(param_double(params, "beta_fast"))), 0.0);
    double high =
        std::min(std::ceil(correction(param_double(params, "beta_slow"))), double(dim - 1));
    if (low == high) high += 0.001;
    const double extrapolation = param_double(params, "extrapolation_factor");
    for (int64_t i = 0; i < half; ++i) {
      const double ramp = std::min(1.0, std::max(0.0, (double(i) - low) / (high - low)));
      const double mask = (1 - ramp) * extrapolation;
      freq[i] = freq[i] / factor * (1 - mask) + freq[i] * mask;
    }
    mscale =
        (factor <= 1 ? 1.0 : 0.1 * std::log(factor) + 1.0) * param_double(params, "attn_factor");
  }
  const std::vector<double> positions = to_doubles(in[0]);
  std::vector<double> cache(positions.size() * static_cast<size_t>(dim));
  for (size_t t = 0; t < positions.size(); ++t) {
    for (int64_t i = 0; i < half; ++i) {
      cache[t * dim + i] = std::cos(positions[t] * freq[i]) * mscale;
      cache[t * dim + half + i] = std::sin(positions[t] * freq[i]) * mscale;
    }
  }
  return {{from_doubles(cache, Shape{static_cast<int64_t>(positions.size()), dim})}, {}};
}

std::optional<Tensor> rotary_cos_sin_cache_input(int, const Shape& shape, DType dtype,
                                                 uint64_t seed,
                                                 std::span<const std::optional<Shape>>) {
  return random_tensor(shape, dtype, seed, 0.0, 2.0 * static_cast<double>(shape.numel()));
}

const StaticReferenceRegistration<> kRegistration("RotaryCosSinCacheFwdOp",
                                                  {&rotary_cos_sin_cache_reference,
                                                   &rotary_cos_sin_cache_input});

}  // namespace
}  // namespace tileops
