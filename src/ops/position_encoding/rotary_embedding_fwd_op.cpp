#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"

#include <cstdint>

namespace tileops {

std::string RotaryEmbeddingCall::describe() const {
  return fmt::format(
      "{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}", describe_field("device", device),
      describe_field("dtype", dtype), describe_field("cache_dtype", cache_dtype),
      describe_field("position_dtype", position_dtype), describe_field("tokens", tokens),
      describe_field("query_heads", query_heads), describe_field("key_heads", key_heads),
      describe_field("head_dim", head_dim), describe_field("rotary_dim", rotary_dim),
      describe_field("max_position", max_position), describe_field("is_neox", is_neox),
      describe_field("aligned16", aligned16));
}

RotaryEmbeddingFwdOp::RotaryEmbeddingFwdOp(Params params, Target target)
    : RotaryEmbeddingFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& RotaryEmbeddingFwdOp::decl() {
  static const OpDecl kDecl{{&RotaryEmbeddingKernel::info()}, {}, {}};
  return kDecl;
}

namespace {
bool starts_on_16_bytes(const Tensor& t) {
  return reinterpret_cast<uintptr_t>(t.data()) % 16 == 0;
}
}  // namespace

void RotaryEmbeddingFwdOp::forward(const Tensor& positions, const Tensor& query, const Tensor& key,
                                   const Tensor& cos_sin_cache, Tensor& query_out,
                                   Tensor& key_out) {
  const RotaryEmbeddingCall call{{query.device()},
                                 query.dtype(),
                                 cos_sin_cache.dtype(),
                                 positions.dtype(),
                                 query.size(0),
                                 query.size(1),
                                 key.size(1),
                                 query.size(2),
                                 cos_sin_cache.size(1),
                                 cos_sin_cache.size(0),
                                 params().is_neox,
                                 starts_on_16_bytes(query) && starts_on_16_bytes(key) &&
                                     starts_on_16_bytes(query_out) && starts_on_16_bytes(key_out)};
  kernel_for<RotaryEmbeddingKernel>(call).run(call, positions, query, key, cos_sin_cache, query_out,
                                              key_out);
}

}  // namespace tileops
