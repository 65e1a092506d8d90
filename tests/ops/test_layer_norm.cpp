// LayerNormFwdOp on the CPU against the float64 reference.
#include "support/test_support.hpp"
#include "tileops/core/error.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class LayerNormCpu : public ::testing::TestWithParam<DType> {};

TEST_P(LayerNormCpu, OneRowMatchesReference) {
  LayerNormFwdOp op({.normalized_shape = {4096}});
  EXPECT_TRUE(matches_reference(op, {Shape{1, 4096}, Shape{4096}, Shape{4096}}, GetParam()));
}

TEST_P(LayerNormCpu, OddSizesMatchReference) {
  LayerNormFwdOp op({.normalized_shape = {1003}});
  EXPECT_TRUE(matches_reference(op, {Shape{7, 1003}, Shape{1003}, Shape{1003}}, GetParam()));
}

TEST_P(LayerNormCpu, SeveralLeadingDimsMatchReference) {
  LayerNormFwdOp op({.normalized_shape = {77}, .eps = 1e-6});
  EXPECT_TRUE(matches_reference(op, {Shape{3, 5, 2, 77}, Shape{77}, Shape{77}}, GetParam()));
}

TEST_P(LayerNormCpu, SeveralNormalizedDimsMatchReference) {
  LayerNormFwdOp op({.normalized_shape = {6, 10}});
  EXPECT_TRUE(matches_reference(op, {Shape{5, 6, 10}, Shape{6, 10}, Shape{6, 10}}, GetParam()));
}

TEST_P(LayerNormCpu, WholeTensorNormalizedMatchesReference) {
  LayerNormFwdOp op({.normalized_shape = {3, 1}});
  EXPECT_TRUE(matches_reference(op, {Shape{3, 1}, Shape{3, 1}, Shape{3, 1}}, GetParam()));
}

TEST_P(LayerNormCpu, SingleElementRowsMatchReference) {
  LayerNormFwdOp op({.normalized_shape = {1}});
  EXPECT_TRUE(matches_reference(op, {Shape{9, 1}, Shape{1}, Shape{1}}, GetParam()));
}

TEST_P(LayerNormCpu, LargeMatchesReference) {
  LayerNormFwdOp op({.normalized_shape = {8192}});
  EXPECT_TRUE(matches_reference(op, {Shape{257, 8192}, Shape{8192}, Shape{8192}}, GetParam()));
}

TEST_P(LayerNormCpu, NoneEpsUsesMachineEpsilon) {
  LayerNormFwdOp op({.normalized_shape = {64}, .eps = std::nullopt});
  EXPECT_TRUE(matches_reference(op, {Shape{3, 64}, Shape{64}, Shape{64}}, GetParam()));
}

TEST_P(LayerNormCpu, WritesEveryOutputElement) {
  LayerNormFwdOp op({.normalized_shape = {129}});
  EXPECT_TRUE(
      testing::writes_every_element(op, {Shape{33, 129}, Shape{129}, Shape{129}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, LayerNormCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(LayerNormErrors, WrongDtypeIsDTypeError) {
  LayerNormFwdOp op({.normalized_shape = {8}});
  const Tensor x = Tensor::zeros({2, 8}, DType::kFloat16);
  EXPECT_THROW(op(x, Tensor::zeros({8}, DType::kFloat32), Tensor::zeros({8}, DType::kFloat16)),
               DTypeError);
  EXPECT_THROW(op(x, Tensor::zeros({8}, DType::kFloat16), Tensor::zeros({8}, DType::kBFloat16)),
               DTypeError);
  const Tensor w64 = Tensor::zeros({8}, DType::kFloat64);
  EXPECT_THROW(op(Tensor::zeros({2, 8}, DType::kFloat64), w64, w64), DTypeError);
}

TEST(LayerNormErrors, WrongShapeIsShapeError) {
  LayerNormFwdOp op({.normalized_shape = {8}});
  const Tensor w = Tensor::zeros({8}, DType::kFloat32);
  EXPECT_THROW(op(Tensor::zeros({2, 7}, DType::kFloat32), w, w), ShapeError);
  EXPECT_THROW(op(Tensor::zeros({2, 8}, DType::kFloat32), w, Tensor::zeros({7}, DType::kFloat32)),
               ShapeError);
  EXPECT_THROW(
      op(Tensor::zeros({2, 8}, DType::kFloat32), Tensor::zeros({1, 8}, DType::kFloat32), w),
      ShapeError);
  LayerNormFwdOp op2({.normalized_shape = {2, 8}});
  const Tensor w2 = Tensor::zeros({2, 8}, DType::kFloat32);
  EXPECT_THROW(op2(Tensor::zeros({8}, DType::kFloat32), w2, w2), ShapeError);
}

TEST(LayerNormErrors, BadParamIsParamErrorAtConstruction) {
  EXPECT_THROW(LayerNormFwdOp({.normalized_shape = IntList{}}), ParamError);
  EXPECT_THROW(LayerNormFwdOp(LayerNormFwdOp::Params{}), ParamError);  // normalized_shape required
}

TEST(LayerNormErrors, EmptyInputWritesNothing) {
  LayerNormFwdOp op({.normalized_shape = {8}});
  const Tensor w = Tensor::zeros({8}, DType::kFloat32);
  const Tensor y = op(Tensor::zeros({0, 8}, DType::kFloat32), w, w);
  EXPECT_EQ(y.shape(), (Shape{0, 8}));
  EXPECT_EQ(op.last_call()->served_by, "empty-write");
}

TEST(LayerNormRoofline, CountsFlopsAndBytes) {
  LayerNormFwdOp op({.normalized_shape = {64}});
  const Tensor w = Tensor::zeros({64}, DType::kFloat16);
  op(Tensor::zeros({3, 5, 64}, DType::kFloat16), w, w);
  EXPECT_EQ(op.last_call()->served_by, "layer_norm_cpu");
  const RooflineValue r = op.eval_roofline();
  EXPECT_EQ(r.flops, 5 * 15 * 64);
  EXPECT_EQ(r.bytes, (2 * 15 * 64 + 2 * 64) * 2);
}

}  // namespace
}  // namespace tileops
