// Float64 reference of RotaryEmbeddingFwdOp, and its inputs for tests and `tileops run`:
// positions uniform in [0, cache rows), and a real cos/sin cache (base 10000).
#include <cmath>
#include <random>

#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/error.hpp"
#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

constexpr int kPositions = 0, kQuery = 1, kKey = 2, kCache = 3;

void rotate(std::vector<double>& v, int64_t heads, int64_t head_dim, int64_t rotary_dim, bool neox,
            const std::vector<double>& cache, const std::vector<double>& positions) {
  const int64_t tokens = static_cast<int64_t>(positions.size()), half = rotary_dim / 2;
  for (int64_t t = 0; t < tokens; ++t) {
    const double* row = cache.data() + static_cast<int64_t>(positions[t]) * rotary_dim;
    for (int64_t h = 0; h < heads; ++h) {
      double* x = v.data() + (t * heads + h) * head_dim;
      for (int64_t i = 0; i < half; ++i) {
        const int64_t a = neox ? i : 2 * i, b = neox ? i + half : 2 * i + 1;
        const double x0 = x[a], x1 = x[b], c = row[i], s = row[half + i];
        x[a] = x0 * c - x1 * s;
        x[b] = x1 * c + x0 * s;
      }
    }
  }
}

ReferenceResult rotary_embedding_reference(const ParamMap& params, std::span<const Tensor> in) {
  const bool neox = param_bool(params, "is_neox");
  const std::vector<double> positions = to_doubles(in[kPositions]);
  const std::vector<double> cache = to_doubles(in[kCache]);
  const int64_t rows = in[kCache].size(0), rotary_dim = in[kCache].size(1);
  for (double p : positions) {
    if (p < 0 || p >= static_cast<double>(rows)) {
      throw ValueError("rotary_embedding_reference: a position lies outside the cache");
    }
  }
  std::vector<double> q = to_doubles(in[kQuery]), k = to_doubles(in[kKey]);
  rotate(q, in[kQuery].size(1), in[kQuery].size(2), rotary_dim, neox, cache, positions);
  rotate(k, in[kKey].size(1), in[kKey].size(2), rotary_dim, neox, cache, positions);
  return {{from_doubles(q, in[kQuery].shape()), from_doubles(k, in[kKey].shape())}, {}};
}

std::optional<Tensor> rotary_embedding_input(int index, const Shape& shape, DType dtype,
                                             uint64_t seed,
                                             std::span<const std::optional<Shape>> shapes) {
  if (index == kPositions && shapes.size() > kCache && shapes[kCache] && !shapes[kCache]->empty()) {
    // Uniform in [0, rows): floor of [0, rows).
    return random_tensor(shape, dtype, seed, 0.0, static_cast<double>((*shapes[kCache])[0]));
  }
  if (index == kCache && shape.size() == 2 && shape[1] % 2 == 0) {
    const int64_t rows = shape[0], rotary_dim = shape[1], half = rotary_dim / 2;
    std::vector<double> v(static_cast<size_t>(rows * rotary_dim));
    for (int64_t p = 0; p < rows; ++p) {
      for (int64_t i = 0; i < half; ++i) {
        const double angle =
            static_cast<double>(p) * std::pow(10000.0, -2.0 * static_cast<double>(i) / rotary_dim);
        v[p * rotary_dim + i] = std::cos(angle);
        v[p * rotary_dim + half + i] = std::sin(angle);
      }
    }
    Tensor cache = Tensor::empty(shape, dtype);
    visit_float_dtype(dtype, [&]<DType D>() {
      using T = element_t<D>;
      T* out = cache.data_as<T>();
      for (size_t i = 0; i < v.size(); ++i) out[i] = T(static_cast<float>(v[i]));
    });
    return cache;
  }
  return std::nullopt;
}

const StaticReferenceRegistration<> kRegistration("RotaryEmbeddingFwdOp",
                                                  {&rotary_embedding_reference,
                                                   &rotary_embedding_input});

}  // namespace
}  // namespace tileops
