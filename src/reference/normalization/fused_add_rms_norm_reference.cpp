// Float64 reference of FusedAddRMSNormFwdOp (vLLM fused_add_rms_norm).
#include <cmath>

#include "tileops/core/dtype_traits.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

// v rounded to dtype as a store of the fp32 sum does: the sum of two dtype values is exact in
// double, so rounding it to float first is the fp32 addition itself.
double round_to(DType dtype, double v) {
  return visit_float_dtype(dtype, [&]<DType D>() {
    using T = element_t<D>;
    if constexpr (std::is_same_v<T, double>) {
      return v;
    } else {
      return static_cast<double>(static_cast<float>(T(static_cast<float>(v))));
    }
  });
}

ReferenceResult fused_add_rms_norm_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x), rv = to_doubles(in[1]), wv = to_doubles(in[2]);
  const int64_t n = static_cast<int64_t>(wv.size());
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(xv.size()) / n;
  const double eps = param_double(params, "eps");
  std::vector<double> z(xv.size()), y(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) z[i] = round_to(x.dtype(), xv[i] + rv[i]);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += z[r * n + i] * z[r * n + i];
    const double inv = 1.0 / std::sqrt(sum / static_cast<double>(n) + eps);
    for (int64_t i = 0; i < n; ++i) y[r * n + i] = z[r * n + i] * inv * wv[i];
  }
  return {{from_doubles(y, x.shape()), from_doubles(z, x.shape())}, {}};
}

const StaticReferenceRegistration<> kRegistration("FusedAddRMSNormFwdOp",
                                                  {&fused_add_rms_norm_reference, {}});

}  // namespace
}  // namespace tileops
