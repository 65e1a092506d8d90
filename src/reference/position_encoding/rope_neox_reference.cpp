// Float64 reference of RopeNeoxFwdOp (NeoX rotary embedding, positions = sequence index).
#include <cmath>

#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult rope_neox_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const bool two_d = param_string(params, "layout") == "2d";
  const double base = param_double(params, "base");
  const int64_t batch = two_d ? x.size(0) : 1;
  const int64_t seq = two_d ? x.size(1) : x.size(0);
  const int64_t heads = two_d ? x.size(2) : 1;
  const int64_t dim = x.size(-1);
  const int64_t half = dim / 2;
  const std::vector<double> xv = to_doubles(x);
  std::vector<double> y(xv.size());
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t at = ((b * seq + s) * heads + h) * dim;
        for (int64_t i = 0; i < half; ++i) {
          const double angle =
              static_cast<double>(s) *
              std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
          const double c = std::cos(angle), sn = std::sin(angle);
          const double x0 = xv[at + i], x1 = xv[at + i + half];
          y[at + i] = x0 * c - x1 * sn;
          y[at + i + half] = x1 * c + x0 * sn;
        }
      }
    }
  }
  return {{from_doubles(y, x.shape())}, {}};
}

const StaticReferenceRegistration<> kRegistration("RopeNeoxFwdOp", {&rope_neox_reference, {}});

}  // namespace
}  // namespace tileops
