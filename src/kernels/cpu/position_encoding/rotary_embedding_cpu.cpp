// Rotary embedding with positions on the CPU: one task per chunk of tokens, each token's cache
// row read once for all its query and key heads. Every position is checked before anything is
// written, so a bad call leaves the outputs (and, in place, the inputs) untouched.
#include <fmt/format.h>

#include "kernels/cpu/float_rows.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename P>
void check_positions(const P* positions, int64_t tokens, int64_t max_position) {
  for (int64_t t = 0; t < tokens; ++t) {
    if (positions[t] < 0 || positions[t] >= max_position) {
      throw ValueError(fmt::format(
          "RotaryEmbeddingFwdOp: argument 'positions': expected values in [0, {}) (the rows of "
          "cos_sin_cache), got {} at index {}",
          max_position, static_cast<int64_t>(positions[t]), t));
    }
  }
}

// Rotates the first rotary_dim elements of one head (x and y may be the same memory: each pair
// is read before it is written) and copies the rest. The rotated part goes through float rows
// (float_rows.hpp). The pairing is a template parameter so that the loop has no branch and
// vectorises.
template <bool kNeox, typename T>
void rotate_head(const RotaryEmbeddingCall& call, const T* x, T* y, const float* cos,
                 const float* sin, RowReader<T>& reader, RowWriter<T>& writer) {
  const int64_t half = call.rotary_dim / 2;
  const float* xf = reader.read(x, call.rotary_dim);
  float* yf = writer.row(y, call.rotary_dim);
  for (int64_t i = 0; i < half; ++i) {
    const int64_t a = kNeox ? i : 2 * i;
    const int64_t b = kNeox ? i + half : 2 * i + 1;
    const float x0 = xf[a], x1 = xf[b];
    yf[a] = x0 * cos[i] - x1 * sin[i];
    yf[b] = x1 * cos[i] + x0 * sin[i];
  }
  writer.commit();
  if (x != y) {
    for (int64_t j = call.rotary_dim; j < call.head_dim; ++j) y[j] = x[j];
  }
}

template <bool kNeox, typename T, typename C, typename P>
void rotate(const RotaryEmbeddingCall& call, const P* positions, const T* q, const T* k,
            const C* cache, T* q_out, T* k_out) {
  const int64_t row = (call.query_heads + call.key_heads) * call.head_dim;
  parallel_for(call.tokens, std::max<int64_t>(1, 16384 / std::max<int64_t>(row, 1)),
               [&](int64_t begin, int64_t end) {
                 RowReader<C> cache_reader;
                 RowReader<T> reader;
                 RowWriter<T> writer;
                 for (int64_t t = begin; t < end; ++t) {
                   const float* cos = cache_reader.read(
                       cache + static_cast<int64_t>(positions[t]) * call.rotary_dim,
                       call.rotary_dim);
                   const float* sin = cos + call.rotary_dim / 2;
                   for (int64_t h = 0; h < call.query_heads; ++h) {
                     const int64_t at = (t * call.query_heads + h) * call.head_dim;
                     rotate_head<kNeox>(call, q + at, q_out + at, cos, sin, reader, writer);
                   }
                   for (int64_t h = 0; h < call.key_heads; ++h) {
                     const int64_t at = (t * call.key_heads + h) * call.head_dim;
                     rotate_head<kNeox>(call, k + at, k_out + at, cos, sin, reader, writer);
                   }
                 }
               });
}

template <typename Fn>
void visit_position_dtype(DType dtype, Fn&& fn) {
  if (dtype == DType::kInt32) {
    fn.template operator()<int32_t>();
  } else {
    fn.template operator()<int64_t>();
  }
}

class RotaryEmbeddingCpuKernel final : public RotaryEmbeddingKernel {
 public:
  using Interface = RotaryEmbeddingKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const RotaryEmbeddingCall& call, const Tensor& positions, const Tensor& query,
           const Tensor& key, const Tensor& cos_sin_cache, const Tensor& query_out,
           const Tensor& key_out) override {
    visit_position_dtype(call.position_dtype, [&]<typename P>() {
      const P* pos = positions.data_as<const P>();
      check_positions(pos, call.tokens, call.max_position);
      visit_float_dtype(call.dtype, [&]<DType D>() {
        using T = element_t<D>;
        visit_float_dtype(call.cache_dtype, [&]<DType CD>() {
          using C = element_t<CD>;
          auto go = [&]<bool kNeox>() {
            rotate<kNeox, T, C, P>(call, pos, query.data_as<const T>(), key.data_as<const T>(),
                                   cos_sin_cache.data_as<const C>(), query_out.data_as<T>(),
                                   key_out.data_as<T>());
          };
          call.is_neox ? go.template operator()<true>() : go.template operator()<false>();
        });
      });
    });
  }
};

const StaticKernelRegistration<RotaryEmbeddingCpuKernel> kRegistration("RotaryEmbeddingFwdOp",
                                                                       "rotary_embedding_cpu");

}  // namespace
}  // namespace tileops::cpu
