// RotaryCosSinCacheFwdOp on the CPU: against the float64 reference for the default, Llama-3 and
// YaRN scaling; the frequencies at the edges of each scheme's bands; the cache feeding
// RotaryEmbeddingFwdOp; the parameter checks.
#include <cmath>
#include <numbers>

#include "support/test_support.hpp"
#include "tileops/ops/position_encoding/rotary_cos_sin_cache_fwd_op.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;
using Params = RotaryCosSinCacheFwdOp::Params;

TEST(RotaryCosSinCache, EveryScalingMatchesTheReference) {
  const Params cases[] = {
      {.rotary_dim = 128},
      {.rotary_dim = 2, .base = 500.0},
      {.rotary_dim = 128, .base = 500000.0, .scaling = "llama3", .factor = 8.0},
      {.rotary_dim = 64,
       .scaling = "llama3",
       .factor = 4.0,
       .low_freq_factor = 2.0,
       .high_freq_factor = 2.0,
       .original_max_position = 2048},
      {.rotary_dim = 64, .scaling = "yarn", .factor = 4.0, .original_max_position = 4096},
      {.rotary_dim = 96,
       .base = 1e6,
       .scaling = "yarn",
       .factor = 40.0,
       .original_max_position = 4096,
       .beta_fast = 16.0,
       .beta_slow = 2.0,
       .extrapolation_factor = 0.5,
       .attn_factor = 0.7},
  };
  for (const Params& p : cases) {
    RotaryCosSinCacheFwdOp op(p);
    for (DType positions : {DType::kInt32, DType::kInt64}) {
      for (int64_t tokens : {int64_t{1}, int64_t{1000}, int64_t{0}}) {
        EXPECT_TRUE(matches_reference(op, {Shape{tokens}}, positions))
            << p.scaling << " rotary_dim=" << *p.rotary_dim << " tokens=" << tokens;
      }
    }
  }
}

// Llama 3.1 (factor 8, bands 1..4 over 8192 positions): a frequency whose wavelength is under
// 2048 positions is kept, over 8192 divided by 8, between blended.
TEST(RotaryCosSinCache, Llama3KeepsHighDividesLowAndBlendsBetween) {
  const Params p{.rotary_dim = 128, .base = 500000.0, .scaling = "llama3", .factor = 8.0};
  const RotaryFrequencies scaled = RotaryCosSinCacheFwdOp(p).frequencies();
  const RotaryFrequencies plain =
      RotaryCosSinCacheFwdOp({.rotary_dim = 128, .base = 500000.0}).frequencies();
  int kept = 0, divided = 0, blended = 0;
  for (size_t i = 0; i < plain.inv_freq.size(); ++i) {
    const double wavelen = 2 * std::numbers::pi / plain.inv_freq[i];
    const double ratio = scaled.inv_freq[i] / plain.inv_freq[i];
    if (wavelen < 2048) {
      EXPECT_DOUBLE_EQ(ratio, 1.0) << i;
      ++kept;
    } else if (wavelen > 8192) {
      EXPECT_DOUBLE_EQ(ratio, 1.0 / 8) << i;
      ++divided;
    } else {
      EXPECT_GT(ratio, 1.0 / 8) << i;
      EXPECT_LT(ratio, 1.0) << i;
      ++blended;
    }
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(divided, 0);
  EXPECT_GT(blended, 0);
  EXPECT_EQ(scaled.mscale, 1.0);
}

// YaRN: the first dims (fast rotations) keep their frequency, the last are interpolated by the
// factor, and cos and sin carry 0.1 ln(factor) + 1.
TEST(RotaryCosSinCache, YarnExtrapolatesFastAndInterpolatesSlowDims) {
  const Params p{
      .rotary_dim = 128, .scaling = "yarn", .factor = 4.0, .original_max_position = 4096};
  const RotaryFrequencies scaled = RotaryCosSinCacheFwdOp(p).frequencies();
  const RotaryFrequencies plain = RotaryCosSinCacheFwdOp({.rotary_dim = 128}).frequencies();
  EXPECT_DOUBLE_EQ(scaled.inv_freq.front(), plain.inv_freq.front());
  EXPECT_DOUBLE_EQ(scaled.inv_freq.back(), plain.inv_freq.back() / 4);
  EXPECT_DOUBLE_EQ(scaled.mscale, 0.1 * std::log(4.0) + 1.0);
}

// The cache of positions 0..P-1 serves RotaryEmbeddingFwdOp: position 0 leaves a head as it was.
TEST(RotaryCosSinCache, FeedsTheRotaryEmbedding) {
  RotaryCosSinCacheFwdOp build({.rotary_dim = 16});
  Tensor rows = Tensor::empty(Shape{32}, DType::kInt64);
  for (int64_t i = 0; i < 32; ++i) rows.data_as<int64_t>()[i] = i;
  const Tensor cache = build(rows);
  Tensor positions = Tensor::empty(Shape{2}, DType::kInt64);
  positions.data_as<int64_t>()[0] = 0;
  positions.data_as<int64_t>()[1] = 31;
  const Tensor q = random_tensor(Shape{2, 3, 16}, DType::kFloat32, testing::fresh_seed());
  const Tensor k = random_tensor(Shape{2, 1, 16}, DType::kFloat32, testing::fresh_seed());
  RotaryEmbeddingFwdOp rotary;
  const auto out = rotary(positions, q, k, cache);
  for (int64_t j = 0; j < 3 * 16; ++j) {
    EXPECT_FLOAT_EQ(out.query_out.data_as<float>()[j], q.data_as<float>()[j]) << j;
  }
  EXPECT_NE(out.query_out.data_as<float>()[3 * 16 + 1], q.data_as<float>()[3 * 16 + 1]);
}

TEST(RotaryCosSinCacheErrors, ParametersOutsideTheirDomain) {
  EXPECT_THROW(RotaryCosSinCacheFwdOp({.rotary_dim = 7}), ParamError);
  EXPECT_THROW(RotaryCosSinCacheFwdOp({.rotary_dim = 0}), ParamError);
  EXPECT_THROW(RotaryCosSinCacheFwdOp({.rotary_dim = 8, .scaling = "ntk"}), ParamError);
  EXPECT_THROW(RotaryCosSinCacheFwdOp({.rotary_dim = 8, .base = 1.0}), ParamError);
  EXPECT_THROW(RotaryCosSinCacheFwdOp({.rotary_dim = 8, .factor = 0.0}), ParamError);
  EXPECT_THROW(
      RotaryCosSinCacheFwdOp(
          {.rotary_dim = 8, .scaling = "llama3", .low_freq_factor = 4.0, .high_freq_factor = 1.0}),
      ParamError);
  RotaryCosSinCacheFwdOp op({.rotary_dim = 8});
  EXPECT_THROW(op(random_tensor(Shape{4}, DType::kFloat32, 1)), DTypeError);
  EXPECT_THROW(op(random_tensor(Shape{4, 2}, DType::kInt64, 1, 0, 9)), ShapeError);
}

}  // namespace
}  // namespace tileops
