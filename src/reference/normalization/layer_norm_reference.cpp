// Float64 reference of LayerNormFwdOp (torch.nn.functional.layer_norm).
#include <cmath>

#include "tileops/ops/eps.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult layer_norm_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x), wv = to_doubles(in[1]), bv = to_doubles(in[2]);
  const int64_t n = static_cast<int64_t>(wv.size());
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(xv.size()) / n;
  const double eps = resolve_eps(param_optional_double(params, "eps"), x.dtype());
  std::vector<double> y(xv.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = xv.data() + r * n;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += xr[i];
    const double mean = sum / static_cast<double>(n);
    double sq = 0;
    for (int64_t i = 0; i < n; ++i) sq += (xr[i] - mean) * (xr[i] - mean);
    const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(n) + eps);
    for (int64_t i = 0; i < n; ++i) y[r * n + i] = (xr[i] - mean) * rstd * wv[i] + bv[i];
  }
  return {{from_doubles(y, x.shape())}, {}};
}

const StaticReferenceRegistration<> kRegistration("LayerNormFwdOp", {&layer_norm_reference, {}});

}  // namespace
}  // namespace tileops
