// RMSNormFwdOp on the CPU against the float64 reference.
#include "support/test_support.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class RMSNormCpu : public ::testing::TestWithParam<DType> {};

TEST_P(RMSNormCpu, OneRowMatchesReference) {
  RMSNormFwdOp op({.normalized_shape = {4096}});
  EXPECT_TRUE(matches_reference(op, {Shape{1, 4096}, Shape{4096}}, GetParam()));
}

TEST_P(RMSNormCpu, OddSizesMatchReference) {
  RMSNormFwdOp op({.normalized_shape = {1003}, .eps = 1e-5});
  EXPECT_TRUE(matches_reference(op, {Shape{7, 3, 1003}, Shape{1003}}, GetParam()));
}

TEST_P(RMSNormCpu, SeveralNormalizedDimsMatchReference) {
  RMSNormFwdOp op({.normalized_shape = {6, 10}});
  EXPECT_TRUE(matches_reference(op, {Shape{5, 6, 10}, Shape{6, 10}}, GetParam()));
}

TEST_P(RMSNormCpu, LargeMatchesReference) {
  RMSNormFwdOp op({.normalized_shape = {8192}});
  EXPECT_TRUE(matches_reference(op, {Shape{257, 8192}, Shape{8192}}, GetParam()));
}

TEST_P(RMSNormCpu, NoneEpsUsesMachineEpsilon) {
  RMSNormFwdOp op({.normalized_shape = {64}, .eps = std::nullopt});
  EXPECT_TRUE(matches_reference(op, {Shape{3, 64}, Shape{64}}, GetParam()));
}

TEST_P(RMSNormCpu, WritesEveryOutputElement) {
  RMSNormFwdOp op({.normalized_shape = {129}});
  EXPECT_TRUE(testing::writes_every_element(op, {Shape{33, 129}, Shape{129}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RMSNormCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
