// Float64 reference of SiluAndMulFwdOp: silu(x[:, :N]) * x[:, N:].
#include <cmath>

#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

ReferenceResult silu_and_mul_reference(const ParamMap&, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x);
  const int64_t m = x.size(0);
  const int64_t n = x.size(1) / 2;
  std::vector<double> y(static_cast<size_t>(m * n));
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      const double g = xv[r * 2 * n + c];
      y[r * n + c] = g / (1.0 + std::exp(-g)) * xv[r * 2 * n + n + c];
    }
  }
  return {{from_doubles(y, Shape{m, n})}, {}};
}

// Uniform in [-8, 8]: [-1, 1] would test only silu's bend, not its saturating tails.
std::optional<Tensor> silu_and_mul_input(int, const Shape& shape, DType dtype, uint64_t seed) {
  return random_tensor(shape, dtype, seed, -8.0, 8.0);
}

const StaticReferenceRegistration<> kRegistration("SiluAndMulFwdOp",
                                                  {&silu_and_mul_reference, &silu_and_mul_input});

}  // namespace
}  // namespace tileops
