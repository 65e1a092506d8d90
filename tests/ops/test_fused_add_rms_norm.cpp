// FusedAddRMSNormFwdOp on the CPU against the float64 reference.
#include <cmath>

#include "support/test_support.hpp"
#include "tileops/core/error.hpp"
#include "tileops/core/half.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class FusedAddRMSNormCpu : public ::testing::TestWithParam<DType> {};

TEST_P(FusedAddRMSNormCpu, OneRowMatchesReference) {
  FusedAddRMSNormFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{1, 4096}, Shape{1, 4096}, Shape{4096}}, GetParam()));
}

TEST_P(FusedAddRMSNormCpu, OddSizesMatchReference) {
  FusedAddRMSNormFwdOp op({.eps = 1e-5});
  EXPECT_TRUE(matches_reference(op, {Shape{7, 1003}, Shape{7, 1003}, Shape{1003}}, GetParam()));
}

TEST_P(FusedAddRMSNormCpu, SeveralLeadingDimsMatchReference) {
  FusedAddRMSNormFwdOp op;
  EXPECT_TRUE(
      matches_reference(op, {Shape{3, 5, 2, 77}, Shape{3, 5, 2, 77}, Shape{77}}, GetParam()));
}

TEST_P(FusedAddRMSNormCpu, OneDimensionalMatchesReference) {
  FusedAddRMSNormFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{33}, Shape{33}, Shape{33}}, GetParam()));
}

TEST_P(FusedAddRMSNormCpu, LargeMatchesReference) {
  FusedAddRMSNormFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{257, 8192}, Shape{257, 8192}, Shape{8192}}, GetParam()));
}

TEST_P(FusedAddRMSNormCpu, WritesEveryOutputElement) {
  FusedAddRMSNormFwdOp op;
  EXPECT_TRUE(
      testing::writes_every_element(op, {Shape{33, 129}, Shape{33, 129}, Shape{129}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, FusedAddRMSNormCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(FusedAddRMSNormSemantics, ResidualOutIsTheRoundedSum) {
  // 1 + 2^-11 is not a float16: the sum rounds (to even) to 1, and the output is the RMSNorm of
  // that stored value.
  FusedAddRMSNormFwdOp op;
  Tensor x = Tensor::empty({1, 2}, DType::kFloat16);
  Tensor r = Tensor::empty({1, 2}, DType::kFloat16);
  Tensor w = Tensor::empty({2}, DType::kFloat16);
  x.data_as<Half>()[0] = Half(1.0f);
  x.data_as<Half>()[1] = Half(1.0f);
  r.data_as<Half>()[0] = Half(0.00048828125f);  // 2^-11
  r.data_as<Half>()[1] = Half(0.0f);
  w.data_as<Half>()[0] = Half(1.0f);
  w.data_as<Half>()[1] = Half(1.0f);
  const auto out = op(x, r, w);
  EXPECT_EQ(static_cast<float>(out.residual_out.data_as<Half>()[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(out.residual_out.data_as<Half>()[1]), 1.0f);
  const float expected = static_cast<float>(Half(1.0f / std::sqrt(1.0f + 1e-6f)));
  EXPECT_EQ(static_cast<float>(out.output.data_as<Half>()[0]), expected);
  EXPECT_EQ(static_cast<float>(out.output.data_as<Half>()[1]), expected);
}

TEST(FusedAddRMSNormErrors, WrongDtypeIsDTypeError) {
  FusedAddRMSNormFwdOp op;
  const Tensor x = Tensor::zeros({2, 8}, DType::kBFloat16);
  const Tensor w = Tensor::zeros({8}, DType::kBFloat16);
  EXPECT_THROW(op(x, Tensor::zeros({2, 8}, DType::kFloat16), w), DTypeError);
  EXPECT_THROW(op(x, x, Tensor::zeros({8}, DType::kFloat32)), DTypeError);
  EXPECT_THROW(op(Tensor::zeros({2, 8}, DType::kFloat64), Tensor::zeros({2, 8}, DType::kFloat64),
                  Tensor::zeros({8}, DType::kFloat64)),
               DTypeError);
}

TEST(FusedAddRMSNormErrors, WrongShapeIsShapeError) {
  FusedAddRMSNormFwdOp op;
  const Tensor x = Tensor::zeros({2, 8}, DType::kFloat32);
  const Tensor w = Tensor::zeros({8}, DType::kFloat32);
  EXPECT_THROW(op(x, Tensor::zeros({1, 8}, DType::kFloat32), w), ShapeError);
  EXPECT_THROW(op(x, Tensor::zeros({2, 8, 1}, DType::kFloat32), w), ShapeError);
  EXPECT_THROW(op(x, x, Tensor::zeros({2, 8}, DType::kFloat32)), ShapeError);
  EXPECT_THROW(op(x, x, Tensor::zeros({7}, DType::kFloat32)), ShapeError);
  const Tensor scalar = Tensor::zeros({}, DType::kFloat32);
  EXPECT_THROW(op(scalar, scalar, w), ShapeError);
}

TEST(FusedAddRMSNormErrors, BadParamIsParamErrorAtConstruction) {
  EXPECT_THROW(make_op("FusedAddRMSNormFwdOp", {{"eps", ParamValue(std::string("small"))}}),
               ParamError);
  EXPECT_THROW(make_op("FusedAddRMSNormFwdOp", {{"epsilon", ParamValue(1e-6)}}), ParamError);
  EXPECT_NO_THROW(make_op("FusedAddRMSNormFwdOp", {{"eps", ParamValue(1e-5)}}));
}

TEST(FusedAddRMSNormRoofline, CountsFlopsAndBytes) {
  FusedAddRMSNormFwdOp op;
  const Tensor x = Tensor::zeros({3, 5, 64}, DType::kBFloat16);
  op(x, x, Tensor::zeros({64}, DType::kBFloat16));
  EXPECT_EQ(op.last_call()->served_by, "fused_add_rms_norm_cpu");
  const RooflineValue r = op.eval_roofline();
  EXPECT_EQ(r.flops, 5 * 15 * 64);
  EXPECT_EQ(r.bytes, (4 * 15 * 64 + 64) * 2);
}

}  // namespace
}  // namespace tileops
