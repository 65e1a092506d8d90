// RotaryCosSinCacheFwdOp: the cos/sin cache of RotaryEmbeddingFwdOp for given positions, with
// vLLM's default, Llama-3 and YaRN frequency scaling (manifest/position_encoding.yaml).
#pragma once

#include <vector>

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/position_encoding.gen.hpp"

namespace tileops {

// The rotary_dim / 2 frequencies (radians per position) and the factor applied to cos and sin.
struct TILEOPS_API RotaryFrequencies {
  std::vector<double> inv_freq;
  double mscale = 1.0;
};
// From the op's (checked) parameters: base^(-2i / rotary_dim), then the scaling they name.
TILEOPS_API RotaryFrequencies rotary_frequencies(const gen::RotaryCosSinCacheFwdOpParams& p);

struct TILEOPS_API RotaryCosSinCacheCall : CallSpec {
  DType position_dtype = DType::kInt64;
  int64_t tokens = 0;
  int64_t rotary_dim = 0;
  friend bool operator==(const RotaryCosSinCacheCall&, const RotaryCosSinCacheCall&) = default;
  size_t hash() const { return CallHasher::of(device, position_dtype, tokens, rotary_dim); }
  std::string describe() const;
};

// Interface "rotary_cos_sin_cache": positions [tokens] and cache [tokens, rotary_dim] (float32)
// contiguous; row t = cos(positions[t] * f) * mscale, then sin(positions[t] * f) * mscale.
class TILEOPS_API RotaryCosSinCacheKernel
    : public KernelInterface<RotaryCosSinCacheKernel, RotaryCosSinCacheCall> {
 public:
  static constexpr std::string_view kName = "rotary_cos_sin_cache";
  virtual void run(const RotaryCosSinCacheCall& call, const RotaryFrequencies& frequencies,
                   const Tensor& positions, const Tensor& cos_sin_cache) = 0;
};

class TILEOPS_API RotaryCosSinCacheFwdOp final : public gen::RotaryCosSinCacheFwdOpBase {
 public:
  explicit RotaryCosSinCacheFwdOp(Params params, Target target = {});
  static const OpDecl& decl();
  const RotaryFrequencies& frequencies() const { return frequencies_; }

 private:
  void forward(const Tensor& positions, Tensor& cos_sin_cache) override;
  const RotaryFrequencies frequencies_;
};

}  // namespace tileops
