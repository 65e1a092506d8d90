// SiluAndMulFwdOp on the CPU against the float64 reference.
#include "support/test_support.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class SiluAndMulCpu : public ::testing::TestWithParam<DType> {};

TEST_P(SiluAndMulCpu, OneRowMatchesReference) {
  SiluAndMulFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{1, 28672}}, GetParam()));
}

TEST_P(SiluAndMulCpu, OddSizesMatchReference) {
  SiluAndMulFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{7, 2 * 1003}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{13, 2}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{3, 2 * 3000}}, GetParam()));
}

TEST_P(SiluAndMulCpu, LargeMatchesReference) {
  SiluAndMulFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{96, 2 * 5504}}, GetParam()));
}

TEST_P(SiluAndMulCpu, WritesEveryOutputElement) {
  SiluAndMulFwdOp op;
  EXPECT_TRUE(testing::writes_every_element(op, {Shape{33, 2 * 129}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, SiluAndMulCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(SiluAndMulErrors, RejectsDisallowedDtype) {
  SiluAndMulFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{4, 8}, DType::kFloat64, 1)), DTypeError);
}

TEST(SiluAndMulErrors, RejectsOddLastDim) {
  SiluAndMulFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{4, 7}, DType::kFloat32, 1)), ShapeError);
}

TEST(SiluAndMulErrors, RejectsWrongRank) {
  SiluAndMulFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{8}, DType::kFloat32, 1)), ShapeError);
  EXPECT_THROW(op(random_tensor(Shape{2, 4, 8}, DType::kFloat32, 1)), ShapeError);
}

TEST(SiluAndMulErrors, RejectsUnknownParams) {
  EXPECT_THROW(make_op("SiluAndMulFwdOp", {{"approximate", ParamValue(true)}}), ParamError);
}

TEST(SiluAndMulRoofline, CountsSixFlopsPerOutput) {
  SiluAndMulFwdOp op;
  op(random_tensor(Shape{3, 10}, DType::kBFloat16, 1));
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{6 * 15, 3 * 15 * 2}));
}

}  // namespace
}  // namespace tileops
