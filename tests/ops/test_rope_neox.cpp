// RopeNeoxFwdOp on the CPU against the float64 reference.
#include "support/test_support.hpp"
#include "tileops/ops/position_encoding/rope_neox_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class RopeNeoxCpu : public ::testing::TestWithParam<DType> {};

TEST_P(RopeNeoxCpu, OneRowMatchesReference) {
  RopeNeoxFwdOp op_1d;
  EXPECT_TRUE(matches_reference(op_1d, {Shape{1, 128}}, GetParam()));
  RopeNeoxFwdOp op_2d({.layout = "2d"});
  EXPECT_TRUE(matches_reference(op_2d, {Shape{1, 1, 1, 64}}, GetParam()));
}

TEST_P(RopeNeoxCpu, OddSizesMatchReference) {
  RopeNeoxFwdOp op_1d;
  EXPECT_TRUE(matches_reference(op_1d, {Shape{37, 18}}, GetParam()));
  EXPECT_TRUE(matches_reference(op_1d, {Shape{5, 2}}, GetParam()));
  RopeNeoxFwdOp op_2d({.layout = "2d"});
  EXPECT_TRUE(matches_reference(op_2d, {Shape{3, 17, 5, 6}}, GetParam()));
  EXPECT_TRUE(matches_reference(op_2d, {Shape{2, 100, 3, 96}}, GetParam()));
}

TEST_P(RopeNeoxCpu, BaseParamMatchesReference) {
  RopeNeoxFwdOp op({.layout = "2d", .base = 500000.0});
  EXPECT_TRUE(matches_reference(op, {Shape{2, 33, 4, 128}}, GetParam()));
}

TEST_P(RopeNeoxCpu, LargeMatchesReference) {
  RopeNeoxFwdOp op_1d;
  EXPECT_TRUE(matches_reference(op_1d, {Shape{4096, 128}}, GetParam()));
  RopeNeoxFwdOp op_2d({.layout = "2d"});
  EXPECT_TRUE(matches_reference(op_2d, {Shape{2, 512, 6, 64}}, GetParam()));
}

TEST_P(RopeNeoxCpu, WritesEveryOutputElement) {
  RopeNeoxFwdOp op_1d;
  EXPECT_TRUE(testing::writes_every_element(op_1d, {Shape{33, 130}}, GetParam()));
  RopeNeoxFwdOp op_2d({.layout = "2d"});
  EXPECT_TRUE(testing::writes_every_element(op_2d, {Shape{2, 9, 3, 34}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RopeNeoxCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(RopeNeoxErrors, RejectsDisallowedDtype) {
  RopeNeoxFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{4, 8}, DType::kFloat64, 1)), DTypeError);
}

TEST(RopeNeoxErrors, RejectsUnknownLayoutAtConstruction) {
  EXPECT_THROW({ RopeNeoxFwdOp op({.layout = "3d"}); }, ParamError);
}

TEST(RopeNeoxErrors, RejectsParamsOfTheWrongKind) {
  EXPECT_THROW(make_op("RopeNeoxFwdOp", {{"base", ParamValue(std::string("1e4"))}}), ParamError);
  EXPECT_THROW(make_op("RopeNeoxFwdOp", {{"layout", ParamValue(std::string("bshd"))}}), ParamError);
}

TEST(RopeNeoxErrors, RejectsRankThatDoesNotMatchLayout) {
  RopeNeoxFwdOp op_1d;
  EXPECT_THROW(op_1d(random_tensor(Shape{2, 4, 3, 8}, DType::kFloat32, 1)), ShapeError);
  EXPECT_THROW(op_1d(random_tensor(Shape{8}, DType::kFloat32, 1)), ShapeError);
  RopeNeoxFwdOp op_2d({.layout = "2d"});
  EXPECT_THROW(op_2d(random_tensor(Shape{4, 8}, DType::kFloat32, 1)), ShapeError);
}

TEST(RopeNeoxErrors, RejectsOddHeadDim) {
  RopeNeoxFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{4, 7}, DType::kFloat32, 1)), ShapeError);
}

TEST(RopeNeoxRoofline, CountsThreeFlopsPerElement) {
  RopeNeoxFwdOp op({.layout = "2d"});
  op(random_tensor(Shape{2, 3, 4, 8}, DType::kFloat16, 1));
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{3 * 192, 2 * 192 * 2}));
}

}  // namespace
}  // namespace tileops
