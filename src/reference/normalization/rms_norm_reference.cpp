// Float64 reference of RMSNormFwdOp (torch.nn.functional.rms_norm).
#include <cmath>

#include "tileops/ops/eps.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult rms_norm_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x), wv = to_doubles(in[1]);
  const int64_t n = static_cast<int64_t>(wv.size());
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(xv.size()) / n;
  const double eps = resolve_eps(param_optional_double(params, "eps"), x.dtype());
  std::vector<double> y(xv.size());
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += xv[r * n + i] * xv[r * n + i];
    const double inv = 1.0 / std::sqrt(sum / static_cast<double>(n) + eps);
    for (int64_t i = 0; i < n; ++i) y[r * n + i] = xv[r * n + i] * inv * wv[i];
  }
  return {{from_doubles(y, x.shape())}, {}};
}

const StaticReferenceRegistration<> kRegistration("RMSNormFwdOp", {&rms_norm_reference, {}});

}  // namespace
}  // namespace tileops
