// Float64 references of the gated activations: act(x[..., :N]) * x[..., N:] for SiluAndMulFwdOp,
// GeluAndMulFwdOp (exact gelu) and GeluTanhAndMulFwdOp (torch's tanh approximation).
#include <cmath>

#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

double silu(double g) {
  return g / (1.0 + std::exp(-g));
}
double gelu(double g) {
  return 0.5 * g * (1.0 + std::erf(g / std::sqrt(2.0)));
}
double gelu_tanh(double g) {
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  return 0.5 * g * (1.0 + std::tanh(k * (g + 0.044715 * g * g * g)));
}

template <double (*Act)(double)>
ReferenceResult act_and_mul_reference(const ParamMap&, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x);
  const int64_t n = x.size(-1) / 2;
  const int64_t m = n == 0 ? 0 : x.numel() / (2 * n);
  std::vector<double> y(static_cast<size_t>(m * n));
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      y[r * n + c] = Act(xv[r * 2 * n + c]) * xv[r * 2 * n + n + c];
    }
  }
  Shape out = x.shape();
  out[out.rank() - 1] = n;
  return {{from_doubles(y, out)}, {}};
}

// Uniform in [-8, 8]: [-1, 1] would test only the activation's bend, not its tails.
std::optional<Tensor> act_and_mul_input(int, const Shape& shape, DType dtype, uint64_t seed,
                                        std::span<const std::optional<Shape>>) {
  return random_tensor(shape, dtype, seed, -8.0, 8.0);
}

const StaticReferenceRegistration<> kSilu("SiluAndMulFwdOp",
                                          {&act_and_mul_reference<silu>, &act_and_mul_input});
const StaticReferenceRegistration<> kGelu("GeluAndMulFwdOp",
                                          {&act_and_mul_reference<gelu>, &act_and_mul_input});
const StaticReferenceRegistration<> kGeluTanh("GeluTanhAndMulFwdOp",
                                              {&act_and_mul_reference<gelu_tanh>,
                                               &act_and_mul_input});

}  // namespace
}  // namespace tileops
