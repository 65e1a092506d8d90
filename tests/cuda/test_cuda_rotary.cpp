// RotaryEmbeddingFwdOp on the GPU against the float64 reference, every output element, outputs
// poisoned first, fresh random inputs each run (skipped without a GPU), on every implementation
// (pairs for few items, 16-byte items over the grid where aligned, a block per token for many
// tokens off the 16-byte access): NeoX and GPT-J pairing, partial rotary
// dims, grouped key heads, every query dtype; int64 positions with a float32 cache; and in place,
// which must equal the out-of-place call bit for bit.
#include <cstring>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "support/cuda_support.hpp"
#include "support/test_support.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/ops/position_encoding/rotary_cos_sin_cache_fwd_op.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

struct Rotary {
  int64_t tokens, query_heads, key_heads, head_dim, cache_rows, rotary_dim;
};

// The implementation dispatch picks, out of place: 16-byte items over the grid where head_dim
// and the rotated span (R/2 NeoX, R GPT-J) split into them (the test's tensors come from the
// allocator, so they are aligned) and there are at least 4096 of them (rotated and passed
// through); else a block per token from 4 tokens an SM, the pairs kernel below that.
std::string expected_kernel(const Rotary& r, bool neox, DType dtype) {
  const int64_t vec = 16 / static_cast<int64_t>(dtype_size(dtype));
  const int64_t span = neox ? r.rotary_dim / 2 : r.rotary_dim;
  const int64_t items =
      r.tokens * (r.query_heads + r.key_heads) * ((span + r.head_dim - r.rotary_dim) / vec);
  if (r.head_dim % vec == 0 && span % vec == 0 && items >= 4096) {
    return "rotary_embedding_flat_vec_cuda";
  }
  if (r.tokens < 4 * read_device_facts(Device::cuda(0)).sm_count) {
    return "rotary_embedding_pairs_cuda";
  }
  return "rotary_embedding_tokens_cuda";
}

std::vector<std::optional<Shape>> shapes_of(const Rotary& r) {
  return {Shape{r.tokens}, Shape{r.tokens, r.query_heads, r.head_dim},
          Shape{r.tokens, r.key_heads, r.head_dim}, Shape{r.cache_rows, r.rotary_dim}};
}

class CudaRotary : public ::testing::TestWithParam<DType> {};

TEST_P(CudaRotary, NeoxAndGptjMatchTheReference) {
  TILEOPS_REQUIRE_CUDA();
  const Rotary shapes[] = {
      {1, 32, 8, 128, 8192, 128}, {37, 5, 1, 64, 100, 64},      {9, 3, 3, 96, 50, 32},
      {2, 2, 2, 2, 4, 2},         {513, 16, 16, 256, 2048, 64}, {4096, 32, 8, 128, 8192, 128},
      {600, 5, 1, 64, 100, 64},   {1000, 3, 3, 96, 50, 32},     {2000, 16, 16, 256, 2048, 64},
      {700, 3, 2, 40, 64, 24},    {600, 4, 2, 100, 64, 64}};
  for (bool neox : {true, false}) {
    RotaryEmbeddingFwdOp op({.is_neox = neox});
    for (const Rotary& r : shapes) {
      EXPECT_TRUE(cuda_matches_reference(op, shapes_of(r), GetParam()))
          << "is_neox=" << neox << " tokens=" << r.tokens << " rotary_dim=" << r.rotary_dim;
      EXPECT_EQ(op.last_call()->served_by, expected_kernel(r, neox, GetParam()))
          << "is_neox=" << neox << " tokens=" << r.tokens << " head_dim=" << r.head_dim
          << " rotary_dim=" << r.rotary_dim;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaRotary,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

std::vector<Tensor> host_inputs(const RotaryEmbeddingFwdOp& op, const Rotary& r, DType dtype,
                                uint64_t seed) {
  return make_inputs(op.schema().name, op.schema(), shapes_of(r), dtype, seed);
}

// int64 positions and a float32 cache beside bf16 query and key; then in place on the device.
TEST(CudaRotaryMixed, Int64PositionsFloat32CacheAndInPlace) {
  TILEOPS_REQUIRE_CUDA();
  for (auto [neox, tokens] :
       {std::pair{true, 77}, std::pair{false, 77}, std::pair{true, 700}, std::pair{false, 700}}) {
    RotaryEmbeddingFwdOp op({.is_neox = neox});
    const Rotary r{tokens, 32, 8, 128, 1000, 96};
    const uint64_t seed = testing::fresh_seed();
    std::vector<Tensor> host = host_inputs(op, r, DType::kBFloat16, seed);
    host[0] = random_tensor(Shape{r.tokens}, DType::kInt64, seed + 1, 0.0, double(r.cache_rows));
    host[3] = host_inputs(op, r, DType::kFloat32, seed)[3];
    const ReferenceResult want = find_reference(op.name())->compute(op.param_values(), host);
    std::vector<Tensor> dev;
    for (const Tensor& t : host) dev.push_back(cuda::to_device(t, Device::cuda(0)));
    std::vector<Tensor> out;
    for (const TensorDesc& d : op.infer_outputs(dev)) {
      out.push_back(Tensor::empty(d.shape, d.dtype, Device::cuda(0)));
      cuda::fill_bytes(out.back(), 0xff);
    }
    op.call_into(dev, out);
    EXPECT_EQ(op.last_call()->served_by, expected_kernel(r, neox, DType::kBFloat16));
    for (size_t i = 0; i < 2; ++i) {
      const Tensor got = Tensor::empty(out[i].shape(), out[i].dtype());
      cuda::copy(got, out[i]);
      const Comparison c = compare(got, want.outputs[i], default_tolerance(DType::kBFloat16));
      EXPECT_TRUE(c.ok()) << "is_neox=" << neox << " output " << i << ": " << c.str();
    }
    // In place: the inputs become the outputs, bit for bit those of the call above.
    op.call_into(dev, std::vector<Tensor>{dev[1], dev[2]});
    for (size_t i = 0; i < 2; ++i) {
      const Tensor in_place = Tensor::empty(out[i].shape(), out[i].dtype());
      const Tensor fresh = Tensor::empty(out[i].shape(), out[i].dtype());
      cuda::copy(in_place, dev[1 + i]);
      cuda::copy(fresh, out[i]);
      EXPECT_EQ(std::memcmp(in_place.data(), fresh.data(), fresh.nbytes()), 0)
          << "is_neox=" << neox << " output " << i;
    }
  }
}

// Runs op on the device over host's inputs with input `shifted` one element into its own storage
// (so off its 16-byte boundary), outputs poisoned first; every output element is checked against
// the float64 reference. Returns the implementation that served the call.
std::string run_with_input_shifted(RotaryEmbeddingFwdOp& op, const std::vector<Tensor>& host,
                                   size_t shifted, const std::string& what) {
  const ReferenceResult want = find_reference(op.name())->compute(op.param_values(), host);
  std::vector<Tensor> dev;
  for (const Tensor& t : host) dev.push_back(cuda::to_device(t, Device::cuda(0)));
  const Tensor& in = host[shifted];
  const Tensor storage = Tensor::empty(Shape{in.numel() + 1}, in.dtype(), Device::cuda(0));
  dev[shifted] = storage.as_strided(in.shape(), contiguous_strides(in.shape()), 1);
  cuda::copy(dev[shifted], in);
  std::vector<Tensor> out;
  for (const TensorDesc& d : op.infer_outputs(dev)) {
    out.push_back(Tensor::empty(d.shape, d.dtype, Device::cuda(0)));
    cuda::fill_bytes(out.back(), 0xff);
  }
  op.call_into(dev, out);
  for (size_t i = 0; i < 2; ++i) {
    const Tensor got = Tensor::empty(out[i].shape(), out[i].dtype());
    cuda::copy(got, out[i]);
    const Comparison c = compare(got, want.outputs[i], default_tolerance(DType::kBFloat16));
    EXPECT_TRUE(c.ok()) << what << " output " << i << ": " << c.str();
  }
  return std::string(op.last_call()->served_by);
}

// A query two bytes off a 16-byte boundary: the block-per-token kernel without 16-byte accesses
// serves it.
TEST(CudaRotaryMixed, MisalignedQueryTakesTheScalarBlockKernel) {
  TILEOPS_REQUIRE_CUDA();
  RotaryEmbeddingFwdOp op({.is_neox = true});
  const Rotary r{700, 8, 2, 128, 1000, 128};
  const std::vector<Tensor> host = host_inputs(op, r, DType::kBFloat16, testing::fresh_seed());
  EXPECT_EQ(run_with_input_shifted(op, host, 1, "misaligned query"),
            "rotary_embedding_tokens_cuda");
}

// A cos/sin cache one element off its packs (a float32 view 4 bytes into its storage): the flat
// kernel reads its entries one by one. A few tokens and prefill, both pairings.
TEST(CudaRotaryMixed, ACacheOffItsPacksIsReadEntryByEntry) {
  TILEOPS_REQUIRE_CUDA();
  for (auto [neox, tokens] :
       {std::pair{true, 64}, std::pair{false, 64}, std::pair{true, 700}, std::pair{false, 700}}) {
    RotaryEmbeddingFwdOp op({.is_neox = neox});
    const Rotary r{tokens, 8, 2, 128, 1000, 128};
    std::vector<Tensor> host = host_inputs(op, r, DType::kBFloat16, testing::fresh_seed());
    host[3] = host_inputs(op, r, DType::kFloat32, testing::fresh_seed())[3];
    const std::string what = fmt::format("is_neox={} tokens={}", neox, tokens);
    EXPECT_EQ(run_with_input_shifted(op, host, 3, what), "rotary_embedding_flat_vec_cuda") << what;
  }
}

// The cos/sin cache built on the device, for the default, Llama-3 and YaRN scaling, against the
// float64 reference.
TEST(CudaRotaryCosSinCache, EveryScalingMatchesTheReference) {
  TILEOPS_REQUIRE_CUDA();
  using Params = RotaryCosSinCacheFwdOp::Params;
  const Params cases[] = {
      {.rotary_dim = 128},
      {.rotary_dim = 128, .base = 500000.0, .scaling = "llama3", .factor = 8.0},
      {.rotary_dim = 64, .scaling = "yarn", .factor = 4.0, .original_max_position = 4096},
      {.rotary_dim = 512, .scaling = "yarn", .factor = 40.0, .attn_factor = 0.7},
      {.rotary_dim = 2}};
  for (const Params& p : cases) {
    RotaryCosSinCacheFwdOp op(p);
    for (DType positions : {DType::kInt32, DType::kInt64}) {
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{3000}}, positions))
          << p.scaling << " rotary_dim=" << *p.rotary_dim;
      EXPECT_EQ(op.last_call()->served_by, "rotary_cos_sin_cache_cuda");
    }
  }
}

}  // namespace
}  // namespace tileops
