// AddFwdOp on the CPU against the float64 reference.
#include "support/test_support.hpp"
#include "tileops/ops/elementwise/add_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class AddCpu : public ::testing::TestWithParam<DType> {};

TEST_P(AddCpu, OneRowMatchesReference) {
  AddFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{1, 4096}, Shape{1, 4096}}, GetParam()));
}

TEST_P(AddCpu, OddSizesMatchReference) {
  AddFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{7, 3, 1003}, Shape{7, 3, 1003}}, GetParam()));
}

TEST_P(AddCpu, ChannelBroadcastMatchesReference) {
  AddFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{3, 37, 9, 11}, Shape{37, 1, 1}}, GetParam()));
}

TEST_P(AddCpu, BroadcastOnBothSidesMatchesReference) {
  AddFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{5, 1, 7}, Shape{3, 1}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{1, 6, 1, 5}, Shape{4, 1, 3, 1}}, GetParam()));
}

TEST_P(AddCpu, DifferentRanksMatchReference) {
  AddFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{19}, Shape{4, 3, 19}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{6, 5, 1}, Shape{1}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{}, Shape{2, 3}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{}, Shape{}}, GetParam()));
}

TEST_P(AddCpu, AlphaScalesOther) {
  AddFwdOp half_op({.alpha = -0.5});
  EXPECT_TRUE(matches_reference(half_op, {Shape{33, 65}, Shape{33, 65}}, GetParam()));
  EXPECT_TRUE(matches_reference(half_op, {Shape{33, 65}, Shape{65}}, GetParam()));
  AddFwdOp int_op({.alpha = 3});
  EXPECT_TRUE(matches_reference(int_op, {Shape{2, 1, 65}, Shape{33, 1}}, GetParam()));
}

TEST_P(AddCpu, LargeMatchesReference) {
  AddFwdOp op;
  EXPECT_TRUE(matches_reference(op, {Shape{257, 4096}, Shape{257, 4096}}, GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{4, 96, 40, 40}, Shape{96, 1, 1}}, GetParam()));
}

TEST_P(AddCpu, WritesEveryOutputElement) {
  AddFwdOp op({.alpha = 2});
  EXPECT_TRUE(testing::writes_every_element(op, {Shape{33, 129}, Shape{33, 129}}, GetParam()));
  EXPECT_TRUE(testing::writes_every_element(op, {Shape{5, 1, 129}, Shape{7, 1}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, AddCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(AddErrors, RejectsDisallowedDtype) {
  AddFwdOp op;
  const Tensor a = random_tensor(Shape{4, 8}, DType::kFloat64, 1);
  EXPECT_THROW(op(a, a), DTypeError);
}

TEST(AddErrors, RejectsMixedDtypes) {
  AddFwdOp op;
  const Tensor a = random_tensor(Shape{4, 8}, DType::kFloat32, 1);
  const Tensor b = random_tensor(Shape{4, 8}, DType::kFloat16, 2);
  EXPECT_THROW(op(a, b), DTypeError);
}

TEST(AddErrors, RejectsShapesThatDoNotBroadcast) {
  AddFwdOp op;
  const Tensor a = random_tensor(Shape{4, 8}, DType::kFloat32, 1);
  const Tensor b = random_tensor(Shape{5}, DType::kFloat32, 2);
  const Tensor c = random_tensor(Shape{3, 1, 8}, DType::kFloat32, 3);
  const Tensor d = random_tensor(Shape{2, 4, 8}, DType::kFloat32, 4);
  EXPECT_THROW(op(a, b), ShapeError);
  EXPECT_THROW(op(c, d), ShapeError);
}

TEST(AddErrors, RejectsAlphaThatIsNotANumber) {
  EXPECT_THROW(make_op("AddFwdOp", {{"alpha", ParamValue(std::string("2"))}}), ParamError);
  EXPECT_NO_THROW(make_op("AddFwdOp", {{"alpha", ParamValue(int64_t{2})}}));
}

TEST(AddRoofline, CountsOneFlopPerElementOnlyWithUnitAlpha) {
  const Tensor a = random_tensor(Shape{16, 8, 4}, DType::kFloat16, 1);
  const Tensor b = random_tensor(Shape{8, 1}, DType::kFloat16, 2);
  AddFwdOp plain;
  plain(a, b);
  EXPECT_EQ(plain.eval_roofline(), (RooflineValue{512, (512 + 8 + 512) * 2}));
  AddFwdOp scaled({.alpha = 0.25});
  scaled(a, b);
  EXPECT_EQ(scaled.eval_roofline(), (RooflineValue{1024, (512 + 8 + 512) * 2}));
}

}  // namespace
}  // namespace tileops
