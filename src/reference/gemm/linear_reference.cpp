// Float64 references of LinearFwdOp (x @ weight^T + bias + residual) and GatedLinearFwdOp
// (act(x @ w_gate^T) * (x @ w_up^T)).
#include <algorithm>
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

// x viewed as [m, k] with m the product of its leading dims.
int64_t leading_rows(const Tensor& x) {
  int64_t m = 1;
  for (int i = 0; i + 1 < x.rank(); ++i) m *= x.size(i);
  return m;
}

// y[i, j] = sum_kk x[i, kk] * w[row0 + j, kk] for j in [0, n).
std::vector<double> products(const std::vector<double>& x, const std::vector<double>& w, int64_t m,
                             int64_t n, int64_t k, int64_t row0) {
  std::vector<double> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t kk = 0; kk < k; ++kk) sum += x[i * k + kk] * w[(row0 + j) * k + kk];
      y[i * n + j] = sum;
    }
  }
  return y;
}

// As the GEMM reference: fp32 sums of k products carry error growing like eps32 * k.
double sum_tolerance_scale(int64_t k, DType dtype) {
  const double fp32_atol = default_tolerance(DType::kFloat32).atol;
  return std::max(1.0,
                  std::sqrt(static_cast<double>(k)) * fp32_atol / default_tolerance(dtype).atol);
}

Shape output_shape(const Tensor& x, int64_t n) {
  std::vector<int64_t> dims;
  for (int i = 0; i + 1 < x.rank(); ++i) dims.push_back(x.size(i));
  dims.push_back(n);
  return Shape(dims);
}

ReferenceResult linear_reference(const ParamMap&, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const int64_t m = leading_rows(x), n = w.size(0), k = w.size(1);
  std::vector<double> y = products(to_doubles(x), to_doubles(w), m, n, k, 0);
  if (in.size() > 2 && in[2].defined()) {
    const std::vector<double> bias = to_doubles(in[2]);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) y[i * n + j] += bias[j];
    }
  }
  if (in.size() > 3 && in[3].defined()) {
    const std::vector<double> residual = to_doubles(in[3]);
    for (size_t e = 0; e < y.size(); ++e) y[e] += residual[e];
  }
  ReferenceResult result{{from_doubles(y, output_shape(x, n))}, {}};
  result.tolerance_scale = sum_tolerance_scale(k, x.dtype());
  return result;
}

ReferenceResult gated_linear_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const std::string activation = param_string(params, "activation");
  double (*act)(double) = activation == "gelu"        ? gelu
                          : activation == "gelu_tanh" ? gelu_tanh
                                                      : silu;
  const int64_t m = leading_rows(x), n = w.size(0) / 2, k = w.size(1);
  const std::vector<double> xv = to_doubles(x), wv = to_doubles(w);
  const std::vector<double> gate = products(xv, wv, m, n, k, 0);
  const std::vector<double> up = products(xv, wv, m, n, k, n);
  std::vector<double> y(gate.size());
  for (size_t e = 0; e < y.size(); ++e) y[e] = act(gate[e]) * up[e];
  ReferenceResult result{{from_doubles(y, output_shape(x, n))}, {}};
  // The product of two sums, each with the error above, relative to values of order one.
  result.tolerance_scale = 2.0 * sum_tolerance_scale(k, x.dtype());
  return result;
}

// Weights uniform in +-sqrt(27 / K): with x in [-1, 1] the gate and up sums have a standard
// deviation of about 1.7, so the activations' bends and tails are both exercised while the
// product stays of order one (with +-1 weights it would grow like K).
std::optional<Tensor> gated_linear_input(int index, const Shape& shape, DType dtype, uint64_t seed,
                                         std::span<const std::optional<Shape>>) {
  if (index != 1 || shape.rank() != 2 || shape[1] == 0) return std::nullopt;
  const double bound = std::sqrt(27.0 / static_cast<double>(shape[1]));
  return random_tensor(shape, dtype, seed, -bound, bound);
}

const StaticReferenceRegistration<> kLinear("LinearFwdOp", {&linear_reference, {}});
const StaticReferenceRegistration<> kGatedLinear("GatedLinearFwdOp",
                                                 {&gated_linear_reference, &gated_linear_input});

}  // namespace
}  // namespace tileops
