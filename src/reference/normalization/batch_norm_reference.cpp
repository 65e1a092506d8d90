// Float64 reference of BatchNormFwdOp (torch.nn.functional.batch_norm), with the running
// statistics it leaves behind, and an input maker that keeps running_var positive.
#include <cmath>

#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

constexpr int kRunningVar = 2;  // input index of running_var

ReferenceResult batch_norm_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x);
  std::vector<double> rm = to_doubles(in[1]), rv = to_doubles(in[2]);
  const bool has_weight = in[3].defined(), has_bias = in[4].defined();
  const std::vector<double> wv = has_weight ? to_doubles(in[3]) : std::vector<double>{};
  const std::vector<double> bv = has_bias ? to_doubles(in[4]) : std::vector<double>{};
  const bool training = param_bool(params, "training");
  const double momentum = param_double(params, "momentum");
  const double eps = param_double(params, "eps");
  const int64_t n = x.shape()[0], c = x.shape()[1];
  int64_t l = 1;
  for (int d = 2; d < x.rank(); ++d) l *= x.shape()[d];
  const int64_t count = n * l;
  std::vector<double> y(xv.size());
  for (int64_t ch = 0; ch < c; ++ch) {
    auto at = [&](int64_t i, int64_t j) { return (i * c + ch) * l + j; };
    double mean = rm[ch], var = rv[ch];
    if (training) {
      if (count == 0) continue;  // nothing to normalize; torch leaves the running stats alone
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < l; ++j) sum += xv[at(i, j)];
      }
      mean = sum / static_cast<double>(count);
      double sq = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < l; ++j) sq += (xv[at(i, j)] - mean) * (xv[at(i, j)] - mean);
      }
      var = sq / static_cast<double>(count);
      const double unbiased = sq / static_cast<double>(count - 1);
      rm[ch] = (1 - momentum) * rm[ch] + momentum * mean;
      rv[ch] = (1 - momentum) * rv[ch] + momentum * unbiased;
    }
    const double invstd = 1.0 / std::sqrt(var + eps);
    const double w = has_weight ? wv[ch] : 1.0, b = has_bias ? bv[ch] : 0.0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < l; ++j) y[at(i, j)] = (xv[at(i, j)] - mean) * invstd * w + b;
    }
  }
  return {{from_doubles(y, x.shape())},
          {from_doubles(rm, in[1].shape()), from_doubles(rv, in[2].shape())}};
}

std::optional<Tensor> make_batch_norm_input(int input_index, const Shape& shape, DType dtype,
                                            uint64_t seed, std::span<const std::optional<Shape>>) {
  if (input_index != kRunningVar) return std::nullopt;
  return random_tensor(shape, dtype, seed, 0.5, 1.5);
}

const StaticReferenceRegistration<> kRegistration("BatchNormFwdOp",
                                                  {&batch_norm_reference, &make_batch_norm_input});

}  // namespace
}  // namespace tileops
