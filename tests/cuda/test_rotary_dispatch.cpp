// Which CUDA implementation of RotaryEmbeddingFwdOp dispatch picks, and why it drops the others:
// decided from the call spec and device facts alone (an H200's, installed for the test), so it
// runs without a GPU.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/scoped_state.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"

namespace tileops {
namespace {

const DeviceFacts kH200{90, 132, "h200", 232448};

class RotarySelection final : public gen::RotaryEmbeddingFwdOpBase {
 public:
  RotarySelection() : RotaryEmbeddingFwdOpBase({}, RotaryEmbeddingFwdOp::decl(), {}) {}
  std::string key(const RotaryEmbeddingCall& call) const {
    return key_for<RotaryEmbeddingKernel>(call);
  }

 private:
  void forward(const Tensor&, const Tensor&, const Tensor&, const Tensor&, Tensor&,
               Tensor&) override {}
};

RotaryEmbeddingCall call_of(int64_t tokens, int64_t rotary_dim = 128, bool aligned16 = false) {
  RotaryEmbeddingCall c;
  c.aligned16 = aligned16;
  c.device = Device::cuda(0);
  c.dtype = DType::kBFloat16;
  c.cache_dtype = DType::kFloat32;
  c.position_dtype = DType::kInt64;
  c.tokens = tokens;
  c.query_heads = 32;
  c.key_heads = 8;
  c.head_dim = std::max<int64_t>(128, rotary_dim);
  c.rotary_dim = rotary_dim;
  c.max_position = 8192;
  return c;
}

std::pair<std::string, std::map<std::string, std::string>> decide(const RotaryEmbeddingCall& call) {
  RotarySelection op;
  DispatchTrace trace;
  const std::string key = op.key(call);
  std::map<std::string, std::string> dropped;
  for (const auto& [k, why] : trace.decisions().back().dropped) dropped[k] = why;
  return {key, dropped};
}

TEST(RotaryDispatch, DecodeTokensAreSpreadOverPairs) {
  testing::ScopedDeviceFacts facts(kCUDA, kH200);
  for (int64_t tokens : {1, 64, 527}) {
    const auto [winner, dropped] = decide(call_of(tokens));
    EXPECT_EQ(winner, "rotary_embedding_pairs_cuda") << tokens;
    EXPECT_NE(dropped.at("rotary_embedding_tokens_cuda").find("a block per token leaves SMs idle"),
              std::string::npos)
        << dropped.at("rotary_embedding_tokens_cuda");
  }
}

TEST(RotaryDispatch, PrefillTakesABlockPerToken) {
  testing::ScopedDeviceFacts facts(kCUDA, kH200);
  const auto [winner, dropped] = decide(call_of(528));
  EXPECT_EQ(winner, "rotary_embedding_tokens_cuda");
  EXPECT_EQ(dropped.at("rotary_embedding_pairs_cuda"),
            "general: ranks below every specialised implementation");
  EXPECT_EQ(dropped.at("rotary_embedding_flat_vec_cuda"),
            "refused: query, key or an output does not start on 16 bytes");
  // A cache row too wide for the block's shared memory goes to the pairs kernel.
  EXPECT_EQ(decide(call_of(4096, 16384)).first, "rotary_embedding_pairs_cuda");
}

TEST(RotaryDispatch, AlignedCallsTakeSixteenByteItemsOverTheGrid) {
  testing::ScopedDeviceFacts facts(kCUDA, kH200);
  for (int64_t tokens : {13, 64, 528, 4096}) {
    const auto [winner, dropped] = decide(call_of(tokens, 128, true));
    EXPECT_EQ(winner, "rotary_embedding_flat_vec_cuda") << tokens;
    if (tokens >= 528) {
      EXPECT_EQ(dropped.at("rotary_embedding_tokens_cuda"),
                "outranked by rotary_embedding_flat_vec_cuda (preferred_over)");
    }
  }
  EXPECT_EQ(decide(call_of(4096, 64, true)).first, "rotary_embedding_flat_vec_cuda");
  // NeoX needs each half of rotary_dim in whole 8-element accesses; GPT-J the whole span.
  RotaryEmbeddingCall neox = call_of(4096, 40, true);
  auto [winner, dropped] = decide(neox);
  EXPECT_EQ(winner, "rotary_embedding_tokens_cuda");
  EXPECT_EQ(dropped.at("rotary_embedding_flat_vec_cuda"),
            "refused: rotary_dim 40 does not split into 8-element accesses (NeoX pairing)");
  RotaryEmbeddingCall gptj = neox;
  gptj.is_neox = false;
  EXPECT_EQ(decide(gptj).first, "rotary_embedding_flat_vec_cuda");
  RotaryEmbeddingCall odd_head = call_of(4096, 64, true);
  odd_head.head_dim = 100;
  std::tie(winner, dropped) = decide(odd_head);
  EXPECT_EQ(winner, "rotary_embedding_tokens_cuda");
  EXPECT_EQ(
      dropped.at("rotary_embedding_flat_vec_cuda"),
      "refused: head_dim 100 is not a multiple of 8, the bfloat16 elements of a 16-byte access");
  // Eight heads of 64 rotated dims: 32 items a token, which the flat kernel spreads over the grid
  // (a block per token left most of its 256 threads idle).
  RotaryEmbeddingCall few_heads = call_of(4096, 64, true);
  few_heads.query_heads = 7;
  few_heads.key_heads = 1;
  EXPECT_EQ(decide(few_heads).first, "rotary_embedding_flat_vec_cuda");
  // Misaligned decode tokens stay on the pairs kernel, and so do aligned calls of fewer than
  // 4096 items (12 tokens of 40 heads of 8 NeoX items: 3840).
  std::tie(winner, dropped) = decide(call_of(1));
  EXPECT_EQ(winner, "rotary_embedding_pairs_cuda");
  EXPECT_EQ(dropped.at("rotary_embedding_flat_vec_cuda"),
            "refused: query, key or an output does not start on 16 bytes");
  std::tie(winner, dropped) = decide(call_of(12, 128, true));
  EXPECT_EQ(winner, "rotary_embedding_pairs_cuda");
  EXPECT_EQ(dropped.at("rotary_embedding_flat_vec_cuda"),
            "refused: 3840 16-byte items (under 4096): the pairs kernel, a thread a pair, was "
            "faster on calls this small");
}

}  // namespace
}  // namespace tileops
