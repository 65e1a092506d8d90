// Float64 reference of BmmFwdOp: torch.bmm of the transposed-as-asked operands, problem by problem.
#include <algorithm>
#include <cmath>

#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult bmm_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const bool trans_a = param_bool(params, "trans_a");
  const bool trans_b = param_bool(params, "trans_b");
  const int64_t batch = a.size(0);
  const int64_t m = trans_a ? a.size(2) : a.size(1);
  const int64_t k = trans_a ? a.size(1) : a.size(2);
  const int64_t n = trans_b ? b.size(1) : b.size(2);
  const std::vector<double> av = to_doubles(a), bv = to_doubles(b);
  std::vector<double> d(static_cast<size_t>(batch * m * n));
  for (int64_t p = 0; p < batch; ++p) {
    const double* ap = av.data() + p * m * k;
    const double* bp = bv.data() + p * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          sum += (trans_a ? ap[kk * m + i] : ap[i * k + kk]) *
                 (trans_b ? bp[j * k + kk] : bp[kk * n + j]);
        }
        d[(p * m + i) * n + j] = sum;
      }
    }
  }
  ReferenceResult result{{from_doubles(d, Shape{batch, m, n})}, {}};
  // As GemmFwdOp's reference: fp32 sums of k products.
  const double fp32_atol = default_tolerance(DType::kFloat32).atol;
  result.tolerance_scale = std::max(
      1.0, std::sqrt(static_cast<double>(k)) * fp32_atol / default_tolerance(a.dtype()).atol);
  return result;
}

const StaticReferenceRegistration<> kRegistration("BmmFwdOp", {&bmm_reference, {}});

}  // namespace
}  // namespace tileops
