// RotaryEmbeddingFwdOp on the CPU against the float64 reference: NeoX and GPT-J pairing, partial
// rotary dims, grouped key heads, int32 and int64 positions, a cache in another dtype than the
// query, in place through call_into, and the errors (positions outside the cache write nothing).
#include <cstring>

#include "support/test_support.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

struct Rotary {
  int64_t tokens, query_heads, key_heads, head_dim, cache_rows, rotary_dim;
};

std::vector<std::optional<Shape>> shapes_of(const Rotary& r) {
  return {Shape{r.tokens}, Shape{r.tokens, r.query_heads, r.head_dim},
          Shape{r.tokens, r.key_heads, r.head_dim}, Shape{r.cache_rows, r.rotary_dim}};
}

std::vector<Tensor> inputs_of(const RotaryEmbeddingFwdOp& op, const Rotary& r, DType dtype,
                              uint64_t seed) {
  return make_inputs(op.schema().name, op.schema(), shapes_of(r), dtype, seed);
}

class RotaryEmbeddingCpu : public ::testing::TestWithParam<DType> {};

const Rotary kShapes[] = {
    {1, 32, 8, 128, 8192, 128},    // a decode step of llama-8b
    {37, 5, 1, 64, 100, 64},       // odd token and head counts, one key head
    {9, 3, 3, 96, 50, 32},         // a third of each head rotates
    {2, 2, 2, 2, 4, 2},            // the smallest rotation
    {0, 4, 2, 64, 16, 64},         // no tokens
    {513, 16, 16, 256, 2048, 64},  // GPT-J's partial rotary, many tokens
};

TEST_P(RotaryEmbeddingCpu, NeoxAndGptjMatchTheReference) {
  for (bool neox : {true, false}) {
    RotaryEmbeddingFwdOp op({.is_neox = neox});
    for (const Rotary& r : kShapes) {
      EXPECT_TRUE(matches_reference(op, shapes_of(r), GetParam()))
          << "is_neox=" << neox << " tokens=" << r.tokens << " head_dim=" << r.head_dim
          << " rotary_dim=" << r.rotary_dim;
    }
  }
}

TEST_P(RotaryEmbeddingCpu, WritesEveryOutputElement) {
  RotaryEmbeddingFwdOp op;
  EXPECT_TRUE(testing::writes_every_element(op, shapes_of({7, 3, 2, 80, 64, 48}), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RotaryEmbeddingCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

// int64 positions and a float32 cache beside a bf16 query (the test inputs take int32 positions
// and a cache of the query's dtype).
TEST(RotaryEmbeddingCpuMixed, Int64PositionsAndAFloat32Cache) {
  RotaryEmbeddingFwdOp op;
  const Rotary r{11, 4, 2, 64, 300, 64};
  const uint64_t seed = testing::fresh_seed();
  std::vector<Tensor> in = inputs_of(op, r, DType::kBFloat16, seed);
  in[0] = random_tensor(Shape{r.tokens}, DType::kInt64, seed + 1, 0.0, double(r.cache_rows));
  in[3] = inputs_of(op, r, DType::kFloat32, seed)[3];
  const CheckResult result = run_and_check(op, in);
  EXPECT_TRUE(result.ok) << (result.failures.empty() ? "" : result.failures.front());
  EXPECT_EQ(op.last_call()->served_by, "rotary_embedding_cpu");
}

// call_into with the outputs being the inputs rotates in place: the same values as into fresh
// outputs.
TEST(RotaryEmbeddingCpuInPlace, MatchesTheOutOfPlaceCall) {
  for (bool neox : {true, false}) {
    RotaryEmbeddingFwdOp op({.is_neox = neox});
    const Rotary r{13, 4, 2, 72, 40, 40};
    const std::vector<Tensor> in = inputs_of(op, r, DType::kBFloat16, testing::fresh_seed());
    const auto want = op(in[0], in[1], in[2], in[3]);
    op.call_into(in, std::vector<Tensor>{in[1], in[2]});
    EXPECT_EQ(std::memcmp(in[1].data(), want.query_out.data(), in[1].nbytes()), 0);
    EXPECT_EQ(std::memcmp(in[2].data(), want.key_out.data(), in[2].nbytes()), 0);
  }
}

// A position outside the cache is a ValueError naming it, and nothing is written: not the
// outputs, and in place not the inputs.
TEST(RotaryEmbeddingErrors, APositionOutsideTheCacheWritesNothing) {
  RotaryEmbeddingFwdOp op;
  const Rotary r{5, 2, 1, 16, 10, 16};
  std::vector<Tensor> in = inputs_of(op, r, DType::kFloat32, testing::fresh_seed());
  in[0].data_as<int32_t>()[3] = 10;
  const std::vector<double> query_before = to_doubles(in[1]), key_before = to_doubles(in[2]);
  try {
    op.call_into(in, std::vector<Tensor>{in[1], in[2]});
    ADD_FAILURE() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 'positions'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("got 10 at index 3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(to_doubles(in[1]), query_before);
  EXPECT_EQ(to_doubles(in[2]), key_before);
  in[0].data_as<int32_t>()[3] = -1;
  EXPECT_THROW(op(in[0], in[1], in[2], in[3]), ValueError);
}

TEST(RotaryEmbeddingErrors, ShapesTheSignatureRejects) {
  RotaryEmbeddingFwdOp op;
  auto call = [&](const Rotary& r, Shape key_shape) {
    std::vector<Tensor> in = inputs_of(op, r, DType::kFloat32, 1);
    in[2] = random_tensor(key_shape, DType::kFloat32, 2);
    op(in[0], in[1], in[2], in[3]);
  };
  EXPECT_THROW(call({4, 2, 1, 16, 8, 32}, Shape{4, 1, 16}), ShapeError);  // rotary_dim > head_dim
  EXPECT_THROW(call({4, 2, 1, 16, 8, 7}, Shape{4, 1, 16}), ShapeError);   // odd rotary_dim
  EXPECT_THROW(call({4, 2, 1, 16, 8, 16}, Shape{4, 1, 8}), ShapeError);   // key head_dim
  EXPECT_THROW(call({4, 2, 1, 16, 8, 16}, Shape{3, 1, 16}), ShapeError);  // key tokens
  const std::vector<Tensor> in = inputs_of(op, {4, 2, 1, 16, 8, 16}, DType::kFloat32, 3);
  EXPECT_THROW(op(random_tensor(Shape{4}, DType::kFloat32, 4), in[1], in[2], in[3]), DTypeError);
  EXPECT_THROW(op(in[0], in[1], random_tensor(Shape{4, 1, 16}, DType::kBFloat16, 5), in[3]),
               DTypeError);
}

}  // namespace
}  // namespace tileops
