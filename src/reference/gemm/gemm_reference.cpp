// Float64 reference of GemmFwdOp (torch.matmul of the transposed-as-asked operands).
#include <algorithm>
#include <cmath>

#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult gemm_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const bool trans_a = param_bool(params, "trans_a");
  const bool trans_b = param_bool(params, "trans_b");
  const int64_t m = trans_a ? a.size(1) : a.size(0);
  const int64_t k = trans_a ? a.size(0) : a.size(1);
  const int64_t n = trans_b ? b.size(0) : b.size(1);
  const std::vector<double> av = to_doubles(a), bv = to_doubles(b);
  std::vector<double> d(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        sum += (trans_a ? av[kk * m + i] : av[i * k + kk]) *
               (trans_b ? bv[j * k + kk] : bv[kk * n + j]);
      }
      d[i * n + j] = sum;
    }
  }
  ReferenceResult result{{from_doubles(d, Shape{m, n})}, {}};
  // Kernels sum the K products in fp32. With O(1) inputs the partial sums grow like sqrt(K) and
  // each of the K additions rounds them, so the error grows like eps32 * sqrt(K) * sqrt(K): the
  // rtol term covers one sqrt(K) (|expected| grows with it), the atol term must cover the other.
  // That is fp32's atol times sqrt(K), expressed in units of this dtype's atol (16-bit atols
  // already exceed it until K reaches ~10^4).
  const double fp32_atol = default_tolerance(DType::kFloat32).atol;
  result.tolerance_scale = std::max(
      1.0, std::sqrt(static_cast<double>(k)) * fp32_atol / default_tolerance(a.dtype()).atol);
  return result;
}

const StaticReferenceRegistration<> kRegistration("GemmFwdOp", {&gemm_reference, {}});

}  // namespace
}  // namespace tileops
