// RotaryEmbeddingFwdOp: rotary embedding with per-token positions, query and key together, a
// cos/sin cache and rotary_dim <= head_dim, in the NeoX or GPT-J pairing (vLLM's rotary_embedding
// custom op; manifest/position_encoding.yaml). With R = cos_sin_cache.size(1), token t at
// position p = positions[t], and c_i = cache[p, i], s_i = cache[p, R/2 + i] for i < R/2:
//   NeoX:  out[i] = x[i] c_i - x[i + R/2] s_i,   out[i + R/2] = x[i + R/2] c_i + x[i] s_i
//   GPT-J: out[2i] = x[2i] c_i - x[2i + 1] s_i,  out[2i + 1] = x[2i + 1] c_i + x[2i] s_i
// and out[j] = x[j] for R <= j < head_dim. In place: call_into with the outputs being the inputs.
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/position_encoding.gen.hpp"

namespace tileops {

struct TILEOPS_API RotaryEmbeddingCall : CallSpec {
  DType dtype = DType::kFloat32;           // of query and key
  DType cache_dtype = DType::kFloat32;     // of cos_sin_cache
  DType position_dtype = DType::kInt64;    // int32 or int64
  int64_t tokens = 0;                      // T
  int64_t query_heads = 0, key_heads = 0;  // Hq, Hk
  int64_t head_dim = 0;                    // D
  int64_t rotary_dim = 0;                  // R, even, <= D
  int64_t max_position = 0;                // P: cache rows
  bool is_neox = true;
  bool aligned16 = false;  // query, key and both outputs start on 16-byte boundaries
  friend bool operator==(const RotaryEmbeddingCall&, const RotaryEmbeddingCall&) = default;
  size_t hash() const {
    return CallHasher::of(device, dtype, cache_dtype, position_dtype, tokens, query_heads,
                          key_heads, head_dim, rotary_dim, max_position, is_neox, aligned16);
  }
  std::string describe() const;
};

// Interface "rotary_embedding": every tensor contiguous; query_out may be query and key_out key
// (in place). Positions outside [0, max_position) are the caller's error: the CPU kernel reports
// them before writing anything; the CUDA kernel reads no cache row outside the cache for them
// (it clamps) and its outputs there are unspecified.
class TILEOPS_API RotaryEmbeddingKernel
    : public KernelInterface<RotaryEmbeddingKernel, RotaryEmbeddingCall> {
 public:
  static constexpr std::string_view kName = "rotary_embedding";
  virtual void run(const RotaryEmbeddingCall& call, const Tensor& positions, const Tensor& query,
                   const Tensor& key, const Tensor& cos_sin_cache, const Tensor& query_out,
                   const Tensor& key_out) = 0;
};

class TILEOPS_API RotaryEmbeddingFwdOp final : public gen::RotaryEmbeddingFwdOpBase {
 public:
  explicit RotaryEmbeddingFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& positions, const Tensor& query, const Tensor& key,
               const Tensor& cos_sin_cache, Tensor& query_out, Tensor& key_out) override;
};

}  // namespace tileops
