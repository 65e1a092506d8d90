// LinearFwdOp and GatedLinearFwdOp on the CPU against the float64 references: every tail (bias,
// residual, both, the three gated activations), leading dims, odd sizes, the matrix-vector and
// blocked kernels, and the errors of their signatures.
#include "support/test_support.hpp"
#include "tileops/ops/gemm/gated_linear_fwd_op.hpp"
#include "tileops/ops/gemm/linear_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

// x [lead..., k], weight [n, k], bias [n] when asked, residual [lead..., n] when asked.
std::vector<std::optional<Shape>> linear_shapes(std::vector<int64_t> lead, int64_t n, int64_t k,
                                                bool bias, bool residual) {
  std::vector<int64_t> x = lead, y = lead;
  x.push_back(k);
  y.push_back(n);
  return {Shape(x), Shape{n, k}, bias ? std::optional<Shape>(Shape{n}) : std::nullopt,
          residual ? std::optional<Shape>(Shape(y)) : std::nullopt};
}

std::vector<std::optional<Shape>> gated_shapes(std::vector<int64_t> lead, int64_t i, int64_t k) {
  std::vector<int64_t> x = lead;
  x.push_back(k);
  return {Shape(x), Shape{2 * i, k}};
}

struct Tail {
  bool bias, residual;
};
constexpr Tail kTails[] = {{false, false}, {true, false}, {false, true}, {true, true}};

class LinearCpu : public ::testing::TestWithParam<DType> {};

TEST_P(LinearCpu, EveryTailMatchesReference) {
  for (const Tail t : kTails) {
    SCOPED_TRACE(::testing::Message() << "bias=" << t.bias << " residual=" << t.residual);
    LinearFwdOp op;
    EXPECT_TRUE(matches_reference(op, linear_shapes({17}, 33, 65, t.bias, t.residual), GetParam()));
    EXPECT_TRUE(matches_reference(op, linear_shapes({1}, 300, 257, t.bias, t.residual),
                                  GetParam()));  // gemv
    EXPECT_TRUE(
        matches_reference(op, linear_shapes({2, 3, 5}, 7, 1000, t.bias, t.residual), GetParam()));
    EXPECT_TRUE(matches_reference(op, linear_shapes({40}, 1, 24, t.bias, t.residual),
                                  GetParam()));  // one output column: gemv over rows
  }
}

TEST_P(LinearCpu, EmptyReductionGivesBiasPlusResidual) {
  LinearFwdOp op;
  EXPECT_TRUE(matches_reference(op, linear_shapes({9}, 14, 0, true, true), GetParam()));
  EXPECT_TRUE(matches_reference(op, linear_shapes({9}, 14, 0, false, false), GetParam()));
}

TEST_P(LinearCpu, WritesEveryOutputElement) {
  LinearFwdOp op;
  EXPECT_TRUE(
      testing::writes_every_element(op, linear_shapes({33}, 65, 40, true, true), GetParam()));
  EXPECT_TRUE(
      testing::writes_every_element(op, linear_shapes({1}, 65, 40, true, false), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, LinearCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

class GatedLinearCpu : public ::testing::TestWithParam<DType> {};

TEST_P(GatedLinearCpu, EveryActivationMatchesReference) {
  for (const char* act : {"silu", "gelu", "gelu_tanh"}) {
    SCOPED_TRACE(act);
    GatedLinearFwdOp op({.activation = act});
    EXPECT_TRUE(matches_reference(op, gated_shapes({17}, 33, 65), GetParam()));
    EXPECT_TRUE(matches_reference(op, gated_shapes({1}, 300, 257), GetParam()));  // gemv
    EXPECT_TRUE(matches_reference(op, gated_shapes({2, 3}, 7, 130), GetParam()));
    EXPECT_TRUE(matches_reference(op, gated_shapes({40}, 1, 24), GetParam()));
  }
}

TEST_P(GatedLinearCpu, WritesEveryOutputElement) {
  GatedLinearFwdOp op;
  EXPECT_TRUE(testing::writes_every_element(op, gated_shapes({33}, 65, 40), GetParam()));
  EXPECT_TRUE(testing::writes_every_element(op, gated_shapes({1}, 65, 40), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, GatedLinearCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(LinearDispatch, OneRowGoesToGemvAndTheRestToTheBlockedKernel) {
  LinearFwdOp op;
  const Tensor w = random_tensor(Shape{40, 24}, DType::kFloat32, testing::fresh_seed());
  op(random_tensor(Shape{1, 24}, DType::kFloat32, testing::fresh_seed()), w);
  EXPECT_EQ(op.last_call()->served_by, "gemv_cpu");
  op(random_tensor(Shape{3, 24}, DType::kFloat32, testing::fresh_seed()), w);
  EXPECT_EQ(op.last_call()->served_by, "gemm_cpu_blocked");
  GatedLinearFwdOp gated;
  // One output column of a gated call reads two columns of b: not a vector, so not gemv.
  gated(random_tensor(Shape{5, 24}, DType::kFloat32, testing::fresh_seed()),
        random_tensor(Shape{2, 24}, DType::kFloat32, testing::fresh_seed()));
  EXPECT_EQ(gated.last_call()->served_by, "gemm_cpu_blocked");
}

TEST(LinearErrors, RejectsInconsistentShapes) {
  LinearFwdOp op;
  const Tensor x = random_tensor(Shape{4, 6}, DType::kFloat32, 1);
  const Tensor w = random_tensor(Shape{5, 6}, DType::kFloat32, 2);
  EXPECT_NO_THROW(op(x, w));
  EXPECT_THROW(op(x, random_tensor(Shape{5, 7}, DType::kFloat32, 3)), ShapeError);
  EXPECT_THROW(op(x, w, random_tensor(Shape{6}, DType::kFloat32, 3)), ShapeError);
  EXPECT_THROW(op(x, w, Tensor(), random_tensor(Shape{4, 6}, DType::kFloat32, 3)), ShapeError);
  EXPECT_THROW(op(x, random_tensor(Shape{6}, DType::kFloat32, 3)), ShapeError);
  EXPECT_THROW(op(x, w, random_tensor(Shape{5}, DType::kBFloat16, 3)), DTypeError);
}

TEST(GatedLinearErrors, RejectsOddWeightRowsAndUnknownActivations) {
  GatedLinearFwdOp op;
  const Tensor x = random_tensor(Shape{4, 6}, DType::kFloat32, 1);
  EXPECT_THROW(op(x, random_tensor(Shape{5, 6}, DType::kFloat32, 2)), ShapeError);
  EXPECT_THROW(make_op("GatedLinearFwdOp", {{"activation", ParamValue(std::string("relu"))}}),
               ParamError);
}

TEST(LinearRoofline, CountsTheTailBytes) {
  LinearFwdOp op;
  op(random_tensor(Shape{3, 7}, DType::kBFloat16, 1),
     random_tensor(Shape{5, 7}, DType::kBFloat16, 2), random_tensor(Shape{5}, DType::kBFloat16, 3),
     random_tensor(Shape{3, 5}, DType::kBFloat16, 4));
  EXPECT_EQ(op.eval_roofline(),
            (RooflineValue{2 * 3 * 5 * 7, (3 * 7 + 5 * 7 + 3 * 5 + 5 + 3 * 5) * 2}));
}

}  // namespace
}  // namespace tileops
